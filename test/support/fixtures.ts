import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The recorded upstream payloads, kept in test/fixtures (provenance in its README). */
export const fixturesRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export function readFixture(relativePath: string): string {
  return readFileSync(path.join(fixturesRoot, relativePath), 'utf8');
}

/** The data payloads of a `.chunks.txt` recording, one per line. */
export function fixtureChunks(relativePath: string): string[] {
  return readFixture(relativePath).split('\n').filter((line) => line.trim().length > 0);
}

export type SseFraming = 'data' | 'named';

/**
 * Rebuilds the raw SSE bytes of a recording: chat and Gemini use `data:` lines only (chat ends
 * with `data: [DONE]`), Responses and Anthropic name each event after its JSON `type`.
 */
export function sseFromChunks(chunks: readonly string[], framing: SseFraming, done = false): string {
  let text = '';
  for (const chunk of chunks) {
    if (framing === 'named') {
      const type = (JSON.parse(chunk) as { type?: string }).type ?? 'message';
      text += `event: ${type}\ndata: ${chunk}\n\n`;
    } else {
      text += `data: ${chunk}\n\n`;
    }
  }
  if (done) text += 'data: [DONE]\n\n';
  return text;
}
