import type * as CloudEndpoints from './cloud-endpoints.js';

let loading: Promise<typeof CloudEndpoints> | undefined;

/**
 * The Bedrock and Vertex AI shapes, loaded on the first request for one: a gateway that relays
 * only to the simulator's OpenAI, Anthropic or Gemini shapes never loads them.
 */
export function loadCloudEndpoints(): Promise<typeof CloudEndpoints> {
  loading ??= import('./cloud-endpoints.js');
  return loading;
}
