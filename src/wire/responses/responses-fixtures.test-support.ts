/**
 * Test support: the recorded Responses fixtures in test/fixtures (never imported by runtime
 * code). A `*.chunks.txt` line is one SSE data payload whose `event:` name equals its `type`.
 */
import { fixtureChunks } from '../../../test/support/fixtures.js';

/** The streams in a chunks file: several runs may be recorded back to back, each from `response.created`. */
export function readStreams(relative: string): string[][] {
  const streams: string[][] = [];
  for (const line of fixtureChunks(relative)) {
    const type = (JSON.parse(line) as { type?: unknown }).type;
    if (type === 'response.created' || streams.length === 0) streams.push([]);
    streams.at(-1)?.push(line);
  }
  return streams;
}

export function eventType(line: string): string | undefined {
  const type = (JSON.parse(line) as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/** Every recorded Responses stream (one entry per stream), with the usage of its terminal event. */
export const responsesStreamFixtures = [
  { name: 'azure text', file: 'openai/responses/azure-text.1.chunks.txt', stream: 0 },
  { name: 'azure tool call', file: 'openai/responses/azure-tool-call.1.chunks.txt', stream: 0 },
  { name: 'reasoning tool loop, step 1', file: 'openai/responses/openai-reasoning-encrypted-content.1.chunks.txt', stream: 0 },
  { name: 'reasoning tool loop, step 2', file: 'openai/responses/openai-reasoning-encrypted-content.1.chunks.txt', stream: 1 },
  { name: 'reasoning tool loop, step 3', file: 'openai/responses/openai-reasoning-encrypted-content.1.chunks.txt', stream: 2 },
  { name: 'reasoning tool loop, step 4', file: 'openai/responses/openai-reasoning-encrypted-content.1.chunks.txt', stream: 3 },
  { name: 'web search', file: 'openai/responses/openai-web-search-tool.1.chunks.txt', stream: 0 },
  { name: 'image generation tool', file: 'openai/responses/openai-image-generation-tool.1.chunks.txt', stream: 0 },
] as const;
