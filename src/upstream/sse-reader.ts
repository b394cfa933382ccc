import { createParser } from 'eventsource-parser';

export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Splits a byte stream into SSE events. Returns a push function for byte chunks; events found
 * in each chunk are handed to `onEvent` synchronously, in order.
 */
export function createSseReader(onEvent: (event: SseEvent) => void): { push(chunk: Uint8Array): void; flush(): void } {
  const decoder = new TextDecoder();
  const parser = createParser({ onEvent: (event) => onEvent({ event: event.event, data: event.data }) });
  return {
    push(chunk) {
      parser.feed(decoder.decode(chunk, { stream: true }));
    },
    flush() {
      const rest = decoder.decode();
      // A final event without its blank line still counts: terminate it explicitly.
      parser.feed(rest + '\n\n');
    },
  };
}
