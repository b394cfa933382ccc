/**
 * The one SSE builder of the tests: every stream a test or a scripted upstream writes by hand is
 * made here, so framing (an `event:` line, `data:`, the blank line) is written in one place.
 */

/** One event: `data` goes out as is when it is a string (`[DONE]`, or bytes that are no JSON on purpose), as JSON otherwise. */
export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

/** The text/event-stream bytes of one event, blank line included. */
export function sseEvent(event: SseEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${data}\n\n`;
}

/** A stream as one piece per event, so a scripted upstream sends it event by event. */
export function ssePieces(events: readonly SseEvent[]): string[] {
  return events.map(sseEvent);
}

/** The text/event-stream bytes of a whole stream. */
export function sse(events: readonly SseEvent[]): string {
  return ssePieces(events).join('');
}

/** Unnamed `data:` events (OpenAI chat, Gemini); `done` ends with chat's `data: [DONE]`. */
export function dataEvents(payloads: readonly unknown[], options: { readonly done?: boolean } = {}): SseEvent[] {
  return [...payloads.map((data) => ({ data })), ...(options.done === true ? [{ data: '[DONE]' }] : [])];
}

/**
 * Events named after their JSON `type`, as OpenAI Responses and Anthropic Messages streams are. A
 * string payload (a recorded line) is sent byte for byte; only its `type` is read from it.
 */
export function typedEvents(payloads: readonly unknown[]): SseEvent[] {
  return payloads.map((data) => {
    const parsed = typeof data === 'string' ? (JSON.parse(data) as unknown) : data;
    const type = typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;
    return { event: typeof type === 'string' ? type : 'message', data };
  });
}

/** Splits SSE text into one piece per event, so a recorded stream arrives event by event. */
export function splitSse(text: string): string[] {
  return text.split(/(?<=\n\n)/).filter((piece) => piece.length > 0);
}
