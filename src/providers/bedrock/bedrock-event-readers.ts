import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamEventReader, UpstreamEventReaderFactory, UpstreamStreamEvent } from '../provider-adapter.js';
import { anthropicEventFromFrame } from './anthropic-on-bedrock.js';
import { streamExceptionError } from './bedrock-error.js';
import { createEventStreamReader, loadedEventStreamModules, type EventStreamFrame } from './event-stream-reader.js';

function readerOf(toEvent: (frame: EventStreamFrame) => UpstreamStreamEvent | undefined, onEvent: (event: UpstreamStreamEvent) => void): UpstreamEventReader {
  // The call's authorization loaded the codec; a stream is read only after it.
  const modules = loadedEventStreamModules();
  if (modules === undefined) throw new GatewayError('internal_error', 'A Bedrock stream was read before its call was authorized.');
  return createEventStreamReader(modules, (frame) => {
    const event = toEvent(frame);
    if (event !== undefined) onEvent(event);
  });
}

/**
 * InvokeModelWithResponseStream: each frame one Anthropic stream event, named by its type. An
 * exception before the first event (Bedrock throttling a stream as it opens) is thrown instead of
 * relayed: nothing has reached the client yet, so the call fails as an HTTP error would and a
 * throttled route falls back to the next. Later exceptions end the stream with a Messages `error`.
 */
export const readAnthropicEvents: UpstreamEventReaderFactory = (onEvent) => {
  let began = false;
  let failed = false;
  return readerOf((frame) => {
    if (failed) return undefined;
    if (frame.kind === 'exception' && !began) {
      failed = true;
      throw streamExceptionError(frame.exceptionType, frame.payload);
    }
    const event = anthropicEventFromFrame(frame);
    if (event !== undefined) began = true;
    return event;
  }, onEvent);
};

/**
 * ConverseStream: each event named by its `:event-type` (`messageStart`, `contentBlockDelta`,
 * `metadata`, …) with its JSON payload; an exception by its `:exception-type`
 * (`throttlingException`, …), the names the AWS SDKs give them.
 */
export const readConverseEvents: UpstreamEventReaderFactory = (onEvent) =>
  readerOf((frame) => ({ event: frame.kind === 'event' ? frame.eventType : frame.exceptionType, data: frame.payload }), onEvent);
