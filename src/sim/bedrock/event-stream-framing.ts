import type { EventStreamCodec } from '@smithy/eventstream-codec';
import type { SimStreamEvent, StreamFraming } from '../sim-endpoint.js';

let loading: Promise<EventStreamCodec> | undefined;

/** The AWS SDK's event-stream codec, loaded on the first Bedrock stream: a text-only simulator never needs it. */
export function loadEventStreamCodec(): Promise<EventStreamCodec> {
  loading ??= Promise.all([import('@smithy/eventstream-codec'), import('@smithy/util-utf8')]).then(
    ([codec, utf8]) => new codec.EventStreamCodec(utf8.toUtf8, utf8.fromUtf8),
  );
  return loading;
}

const eventStreamType = 'application/vnd.amazon.eventstream';

/** Bedrock pads each event's payload with a `p` member of varying length, so its size tells nothing; readers ignore it. */
function padding(index: number): string {
  return 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'.slice(0, 4 + (index % 30));
}

function eventFrame(codec: EventStreamCodec, eventType: string, payload: unknown): Uint8Array {
  const text = (value: string) => ({ type: 'string' as const, value });
  return codec.encode({
    headers: { ':event-type': text(eventType), ':content-type': text('application/json'), ':message-type': text('event') },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  });
}

/** InvokeModelWithResponseStream: each Anthropic event in a `chunk` frame, as `{"bytes": base64(event JSON)}`. */
export function chunkFraming(codec: EventStreamCodec): StreamFraming {
  return {
    contentType: eventStreamType,
    frame: (events: readonly SimStreamEvent[]) =>
      events.map((event, index) => eventFrame(codec, 'chunk', { bytes: Buffer.from(JSON.stringify(event.data), 'utf8').toString('base64'), p: padding(index) })),
  };
}

/** ConverseStream: each event in a frame named after it (`messageStart`, `contentBlockDelta`, …). */
export function namedEventFraming(codec: EventStreamCodec): StreamFraming {
  return {
    contentType: eventStreamType,
    frame: (events: readonly SimStreamEvent[]) =>
      events.map((event, index) => eventFrame(codec, event.event ?? 'unknown', { ...(event.data as Record<string, unknown>), p: padding(index) })),
  };
}
