import { createParser } from 'eventsource-parser';

/**
 * Reads a server-sent event stream from a fetch answer, calling `onData` with each event's data.
 * EventSource cannot send an Authorization header, so streams are read through fetch.
 */
export async function readEvents(response: Response, onData: (data: string) => void, signal?: AbortSignal): Promise<void> {
  const body = response.body;
  if (body === null) return;
  const parser = createParser({ onEvent: (event) => onData(event.data) });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
