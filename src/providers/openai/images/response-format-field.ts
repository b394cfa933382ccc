import type { ProviderKind, UpstreamTarget } from '../../provider-adapter.js';

/**
 * `response_format` where it must be sent so images come back as base64: the gpt-image family
 * rejects the field (400 `unknown_parameter`), while dall-e models and compatible servers
 * default to URLs.
 */
export function responseFormatField(kind: ProviderKind, target: UpstreamTarget): { response_format?: 'b64_json' } {
  if (kind === 'openai-compatible' || target.model.startsWith('dall-e')) return { response_format: 'b64_json' };
  return {};
}
