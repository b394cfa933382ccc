import type { IrRequest, IrStreamEvent } from '../../ir/index.js';
import type { StreamDecoder } from '../provider-adapter.js';

/** Test support: replaying recorded Gemini chunks, and a minimal request. Used only by *.test.ts files. */

/** Feeds every chunk to the decoder, then ends the stream. */
export function replayChunks(decoder: StreamDecoder, chunks: readonly string[]): IrStreamEvent[] {
  return [...chunks.flatMap((chunk) => decoder.push(undefined, chunk)), ...decoder.end()];
}

export function makeRequest(overrides: Partial<IrRequest> = {}): IrRequest {
  return {
    model: 'gemini-public',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'How many r are in strawberry?' }] }],
    params: {},
    stream: false,
    extensions: {},
    ...overrides,
  };
}
