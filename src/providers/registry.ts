import type { FormatName } from '../ir/format-name.js';
import { anthropicAdapter } from './anthropic/index.js';
import { bedrockImageFamily, converseOnBedrockAdapter, createClaudeOnBedrockAdapter, imagesOnBedrockAdapter, isAnthropicModelId } from './bedrock/index.js';
import { bflAdapter } from './bfl/index.js';
import { falAdapter } from './fal/index.js';
import { geminiAdapter } from './gemini/index.js';
import { miniMaxAdapter } from './minimax/index.js';
import { createAzureAdapter, createOpenAIChatAdapter, openAIResponsesAdapter } from './openai/index.js';
import type { ProviderAdapter, ProviderKind, UpstreamTarget } from './provider-adapter.js';
import { runwayAdapter } from './runway/index.js';
import { replicateAdapter } from './replicate/index.js';
import { vertexAdapterFor } from './vertex/index.js';

/** The same adapter, passing through more client formats because the upstream serves them too. */
function passingThrough(adapter: ProviderAdapter, nativeFormats: readonly FormatName[]): ProviderAdapter {
  return adapter.text === undefined ? adapter : { ...adapter, text: { ...adapter.text, nativeFormats } };
}

const compatibleChat = createOpenAIChatAdapter('openai-compatible');

/** Claude on Bedrock through InvokeModel, with the Anthropic codecs (a vendor's folder never imports another's). */
const claudeOnBedrock = createClaudeOnBedrockAdapter(anthropicAdapter);

/**
 * OpenAI itself serves both of its formats, so chat and Responses clients pass through; other
 * clients are translated to Responses, which carries encrypted reasoning across turns.
 */
const openAI = passingThrough(openAIResponsesAdapter, ['chat', 'responses']);

/** A compatible server that says it serves the Responses API too (`responses: true`). */
const compatibleWithResponses = passingThrough(compatibleChat, ['chat', 'responses']);

/**
 * One adapter per upstream kind. Adding an upstream kind is one folder and one line here; a kind
 * without its line does not typecheck.
 */
const adaptersByKind: Readonly<Record<ProviderKind, ProviderAdapter>> = {
  openai: openAI,
  'openai-compatible': compatibleChat,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  azure: createAzureAdapter(),
  // Claude's, for what every Bedrock provider shares; each call's adapter is chosen by its model.
  bedrock: claudeOnBedrock,
  // Gemini's, for what every Vertex provider shares; each call's adapter is chosen by its model.
  vertex: vertexAdapterFor({ model: '' }),
  bfl: bflAdapter,
  runway: runwayAdapter,
  fal: falAdapter,
  replicate: replicateAdapter,
  minimax: miniMaxAdapter,
};

/** The adapter for a kind of upstream, for what every upstream of that kind shares (its API root). */
export function adapterForKind(kind: ProviderKind): ProviderAdapter {
  return adaptersByKind[kind];
}

function bedrockAdapterFor(model: string): ProviderAdapter {
  if (isAnthropicModelId(model)) return claudeOnBedrock;
  return bedrockImageFamily(model) === undefined ? converseOnBedrockAdapter : imagesOnBedrockAdapter;
}

/** The adapter for one upstream. */
export function adapterFor(target: UpstreamTarget): ProviderAdapter {
  if (target.kind === 'openai-compatible' && target.servesResponses === true) return compatibleWithResponses;
  if (target.kind === 'vertex') return vertexAdapterFor(target);
  // Anthropic's models take the Messages body through InvokeModel, image models their own bodies
  // through InvokeModel; every other model, Converse.
  if (target.kind === 'bedrock') return bedrockAdapterFor(target.model);
  return adapterForKind(target.kind);
}
