import { createSseReader } from '../upstream/sse-reader.js';
import type { CallOutcome } from '../routing/call-outcome.js';
import type { ChunkStream } from '../routing/commit-stream.js';

/** Names of the events that carry the finished response object. */
const terminalMarkers = ['response.completed', 'response.incomplete'];
/** Longest marker, so a marker split across two chunks is still found. */
const overlap = Math.max(...terminalMarkers.map((marker) => marker.length)) + 16;

/**
 * Watches an answer in the Responses format on its way to the client and yields the final
 * response object: the body itself when not streamed, the `response` of the terminal event when
 * streamed. The bytes the client gets are not changed, and nothing is parsed until the terminal
 * event begins: every earlier chunk costs one substring search.
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
  /** The last bytes of text seen, while no terminal event has started. */
  let tail = '';
  /** Everything from the start of the event holding a terminal marker, once one appeared. */
  let terminalText: string | undefined;
  for await (const chunk of body) {
    yield chunk;
    const text = decoder.decode(chunk, { stream: true });
    if (terminalText !== undefined) {
      terminalText += text;
      continue;
    }
    const window = tail + text;
    if (terminalMarkers.some((marker) => window.includes(marker))) {
      // Keep from the start of the event that holds the marker (events start after a blank line).
      const eventStart = window.lastIndexOf('\n\n', window.search(/response\.(completed|incomplete)/));
      terminalText = eventStart === -1 ? window : window.slice(eventStart + 2);
    } else {
      tail = window.slice(-overlap);
    }
  }
  found(terminalText === undefined ? undefined : terminalResponse(terminalText));
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
