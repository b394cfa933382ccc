import type { ServerResponse } from 'node:http';
import type { ResponseLifetime } from './response-lifetime.js';

/**
 * Writes pre-framed stream chunks (text for SSE and JSON arrays, bytes for AWS's event stream). Without pacing everything goes out in one write (fast for load
 * tests); with pacing each chunk is its own write, `paceMs` apart. Stops as soon as the client
 * disconnects.
 */
export async function writeStream(
  response: ServerResponse,
  lifetime: ResponseLifetime,
  frames: readonly (string | Uint8Array)[],
  paceMs: number,
): Promise<void> {
  if (paceMs <= 0) {
    if (!lifetime.closed) response.end(frames.every((frame) => typeof frame === 'string') ? frames.join('') : Buffer.concat(frames.map((frame) => (typeof frame === 'string' ? Buffer.from(frame) : frame))));
    return;
  }
  for (let index = 0; index < frames.length; index += 1) {
    if (index > 0 && !(await lifetime.wait(paceMs))) return;
    if (lifetime.closed) return;
    const accepted = response.write(frames[index] ?? '');
    if (!accepted && !(await lifetime.drained())) return;
  }
  if (!lifetime.closed) response.end();
}
