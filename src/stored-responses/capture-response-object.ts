import { createSseReader } from '../upstream/sse-reader.js';
import type { CallOutcome } from '../routing/call-outcome.js';

const terminalEvents = new Set(['response.completed', 'response.incomplete']);

/**
 * Watches an answer in the Responses format on its way to the client and yields the final
 * response object: the body itself when not streamed, the `response` of the terminal event when
 * streamed. The bytes the client gets are not changed.
 */
export function captureResponseObject(outcome: CallOutcome): { outcome: CallOutcome; response: Promise<Record<string, unknown> | undefined> } {
  const body = outcome.body;
  if (!(body instanceof ReadableStream)) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    return { outcome, response: Promise.resolve(parseObject(text)) };
  }
  let captured: Record<string, unknown> | undefined;
  const reader = createSseReader((event) => {
    const type = event.event ?? '';
    if (!terminalEvents.has(type) && !event.data.includes('"response.completed"') && !event.data.includes('"response.incomplete"')) return;
    const parsed = parseObject(event.data);
    const response = parsed?.response;
    if (response !== null && typeof response === 'object' && !Array.isArray(response)) captured = response as Record<string, unknown>;
  });
  let resolveResponse: (value: Record<string, unknown> | undefined) => void = () => {};
  const response = new Promise<Record<string, unknown> | undefined>((resolve) => (resolveResponse = resolve));
  const watched = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        reader.push(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        reader.flush();
        resolveResponse(captured);
      },
    }),
  );
  // A stream cut short never reaches flush: nothing complete to keep.
  void outcome.completion.then((completion) => {
    if (!completion.completed) resolveResponse(undefined);
  });
  return { outcome: { ...outcome, body: watched }, response };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
