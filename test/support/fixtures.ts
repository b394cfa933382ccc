import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataEvents, sse, typedEvents } from './sse.js';

/**
 * The one reader of the recorded upstream payloads in test/fixtures (provenance in its README),
 * for the end-to-end suites and the unit tests under src/ alike: every fixture is named by its
 * path under test/fixtures, so a test names the file a reader can open.
 */
export const fixturesRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export function fixturePath(relativePath: string): string {
  return path.join(fixturesRoot, relativePath);
}

/** A fixture's text, byte for byte. */
export function readFixture(relativePath: string): string {
  return readFileSync(fixturePath(relativePath), 'utf8');
}

/** A binary fixture (a generated video or picture). */
export function readFixtureBytes(relativePath: string): Buffer {
  return readFileSync(fixturePath(relativePath));
}

/** A `.json` fixture, parsed. */
export function readJsonFixture(relativePath: string): unknown {
  return JSON.parse(readFixture(relativePath)) as unknown;
}

/** The data payloads of a `.chunks.txt` recording, one per line, as recorded (build SSE from them with test/support/sse.ts). */
export function fixtureChunks(relativePath: string): string[] {
  return readFixture(relativePath).split('\n').filter((line) => line.trim().length > 0);
}

export type SseFraming = 'data' | 'named';

/**
 * Rebuilds the raw SSE bytes of a recording with the SSE builder: chat and Gemini use `data:` lines only (chat ends
 * with `data: [DONE]`), Responses and Anthropic name each event after its JSON `type`.
 */
export function sseFromChunks(chunks: readonly string[], framing: SseFraming, done = false): string {
  const events = framing === 'named' ? typedEvents(chunks) : dataEvents(chunks);
  return sse(done ? [...events, { data: '[DONE]' }] : events);
}
