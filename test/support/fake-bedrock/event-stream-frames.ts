import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function stringHeader(value: string): { type: 'string'; value: string } {
  return { type: 'string', value };
}

// Bedrock pads each event's payload with a `p` member of varying length, so an event's size does
// not reveal its content; readers must ignore it.
function padding(seed: number): string {
  return 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'.slice(0, 4 + (seed % 30));
}

/** An `event` frame of AWS's event stream, its payload the JSON of `payload`. */
export function eventFrame(eventType: string, payload: Readonly<Record<string, unknown>>): Uint8Array {
  return codec.encode({
    headers: { ':event-type': stringHeader(eventType), ':content-type': stringHeader('application/json'), ':message-type': stringHeader('event') },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** InvokeModelWithResponseStream's frame for one Anthropic stream event: `chunk` with the event's JSON in base64. */
export function chunkFrame(anthropicEvent: unknown, index = 0): Uint8Array {
  return eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(anthropicEvent), 'utf8').toString('base64'), p: padding(index) });
}

/** ConverseStream's frame for one event (`messageStart`, `contentBlockDelta`, `metadata`, …). */
export function converseFrame(eventType: string, payload: Readonly<Record<string, unknown>>, index = 0): Uint8Array {
  return eventFrame(eventType, { ...payload, p: padding(index) });
}

/** An `exception` frame (`throttlingException`, `modelStreamErrorException`, …) that ends a stream. */
export function exceptionFrame(exceptionType: string, body: Readonly<Record<string, unknown>>): Uint8Array {
  return codec.encode({
    headers: { ':exception-type': stringHeader(exceptionType), ':content-type': stringHeader('application/json'), ':message-type': stringHeader('exception') },
    body: fromUtf8(JSON.stringify(body)),
  });
}
