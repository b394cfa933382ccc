import type { ProviderAdapter, UpstreamTarget } from '../provider-adapter.js';
import { vertexClaudeAdapter } from './vertex-claude-adapter.js';
import { publisherOf } from './vertex-endpoint.js';
import { vertexGeminiAdapter } from './vertex-gemini-adapter.js';

/**
 * One Vertex provider serves models of several publishers, each in its own wire format: the
 * route's model id says whose (Claude is Anthropic's; the rest Google's).
 */
export function vertexAdapterFor(target: Pick<UpstreamTarget, 'model'>): ProviderAdapter {
  return publisherOf(target.model) === 'anthropic' ? vertexClaudeAdapter : vertexGeminiAdapter;
}
