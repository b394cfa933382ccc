import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IrRequest, IrStreamEvent } from '../../ir/index.js';
import type { StreamDecoder } from '../provider-adapter.js';

/** Test support: recorded Gemini fixtures and a minimal request. Used only by *.test.ts files. */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtureDirectory = path.resolve(repoRoot, 'test/fixtures/google/generate-content');

export function readGeminiJsonFixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(fixtureDirectory, `${name}.json`), 'utf8'));
}

export function readGeminiFixtureText(name: string): string {
  return readFileSync(path.join(fixtureDirectory, name), 'utf8');
}

/** The `data:` payloads of a recorded stream, one per line. */
export function readGeminiChunks(name: string): string[] {
  return readGeminiFixtureText(`${name}.chunks.txt`)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

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
