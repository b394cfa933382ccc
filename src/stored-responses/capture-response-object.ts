import { createSseReader } from '../upstream/sse-reader.js';
import type { CallOutcome } from '../call/call-outcome.js';
import type { ChunkStream } from '../call/commit-stream.js';

/** Names of the events that carry the finished response object. */
const terminalMarkers = ['response.completed', 'response.incomplete'];
/** Enough bytes either side of a chunk boundary to hold any marker cut by it. */
const overlap = Math.max(...terminalMarkers.map((marker) => marker.length)) - 1;

/**
 * Watches an answer in the Responses format on its way to the client and yields the final
 * response object: the body itself when not streamed, the `response` of the terminal event when
 * streamed. The bytes the client gets are not changed, and nothing is parsed until the terminal
 * event begins: every earlier chunk costs a byte search.
 */
export function captureResponseObject(outcome: CallOutcome): { outcome: CallOutcome; response: Promise<Record<string, unknown> | undefined> } {
  const body = outcome.body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    return { outcome, response: Promise.resolve(parseObject(text)) };
  }
  let resolveResponse: (value: Record<string, unknown> | undefined) => void = () => {};
  const response = new Promise<Record<string, unknown> | undefined>((resolve) => (resolveResponse = resolve));
  // A stream cut short never reaches its end: nothing complete to keep.
  void outcome.completion.then((completion) => {
    if (!completion.completed) resolveResponse(undefined);
  });
  return { outcome: { ...outcome, body: watchForTerminalEvent(body, resolveResponse) }, response };
}

async function* watchForTerminalEvent(body: ChunkStream, found: (response: Record<string, unknown> | undefined) => void): ChunkStream {
  const decoder = new TextDecoder();
  /** The chunk before, while no terminal event has started: a marker may begin in it. */
  let previous: Buffer | undefined;
  /** Everything from the start of the event holding a terminal marker, once one appeared. */
  let terminalText: string | undefined;
  for await (const chunk of body) {
    yield chunk;
    if (terminalText !== undefined) {
      terminalText += decoder.decode(chunk, { stream: true });
      continue;
    }
    // Until the terminal event begins, a chunk costs a byte search: no decoding, no copy.
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!holdsMarker(bytes) && !(previous !== undefined && holdsMarker(acrossBoundary(previous, bytes)))) {
      previous = bytes;
      continue;
    }
    const window = decoder.decode(previous === undefined ? bytes : Buffer.concat([previous, bytes]), { stream: true });
    // Keep from the start of the event that holds the marker (events start after a blank line).
    const eventStart = window.lastIndexOf('\n\n', window.search(/response\.(completed|incomplete)/));
    terminalText = eventStart === -1 ? window : window.slice(eventStart + 2);
  }
  found(terminalText === undefined ? undefined : terminalResponse(terminalText));
}

function holdsMarker(bytes: Buffer): boolean {
  return terminalMarkers.some((marker) => bytes.includes(marker));
}

/** The bytes around a chunk boundary in which a marker cut in two would show whole. */
function acrossBoundary(before: Buffer, after: Buffer): Buffer {
  return Buffer.concat([before.subarray(Math.max(0, before.length - overlap)), after.subarray(0, overlap)]);
}

/** The `response` object of the terminal event in a stretch of SSE text. */
function terminalResponse(text: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  const reader = createSseReader((event) => {
    const parsed = parseObject(event.data);
    const type = parsed?.type;
    const inner = parsed?.response;
    if (typeof type === 'string' && terminalMarkers.includes(type) && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
      found = inner as Record<string, unknown>;
    }
  });
  reader.push(new TextEncoder().encode(text));
  reader.flush();
  return found;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
