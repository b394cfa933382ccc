import { GatewayError, toGatewayError } from '../errors/gateway-error.js';
import type { UsageTap } from '../formats/client-format.js';
import type { AttemptContext } from '../call/attempt-context.js';
import type { ChunkStream } from '../call/commit-stream.js';
import type { DeliveredOutput } from '../call/call-outcome.js';
import { readOnIfClientLeft } from '../call/read-on-if-client-left.js';
import { createSseReader } from '../upstream/sse-reader.js';
import type { UpstreamEventReaderFactory } from '../providers/provider-adapter.js';
import { upstreamTransportError, type UpstreamResponse } from '../upstream/upstream-client.js';
import type { StreamedCallScope } from '../call/streamed-call-scope.js';
import { DeliveredText } from '../tokens/delivered-text.js';
import { createErrorEventScrubber } from '../upstream/error-event-scrubber.js';
import { scrubUpstreamText } from '../providers/scrub-upstream-error.js';
import { createSseEventSplitter } from './sse-event-splitter.js';

/** What the relay learnt by the end of a stream, for metering. */
export interface RelayOutcome {
  /** Set when the stream ended with the gateway's error event instead of the upstream's end. */
  failed: boolean;
  /** What was relayed, to count its output, set when the stream was cut before its last event or its usage. */
  deliveredOutput?: DeliveredOutput;
}

/**
 * Relays a passed-through stream's bytes as they come, in one generator (every layer of async
 * generator costs promises per chunk), while the usage tap reads each event.
 *
 * When the gateway itself asked a chat upstream for usage, the usage-only chunk is dropped:
 * chunks are cut into whole events only when one may hold it or an event spans chunks.
 *
 * An upstream that stops before its format's last event (connection dropped, server crashed)
 * leaves the client waiting for an end that never comes: the relay then adds the format's own
 * error event, so the client knows the answer is incomplete.
 *
 * A client that leaves has been sent part of an answer the upstream bills in full, with its usage
 * still to come: the upstream is read on (within the scope's wait) for that usage. A stream that
 * ends without it (or a server that never states usage) has the output it relayed counted instead.
 */
export async function* relayStream(
  response: UpstreamResponse,
  tap: UsageTap,
  context: AttemptContext,
  dropUsageChunk: boolean,
  scope: StreamedCallScope,
  outcome: RelayOutcome = { failed: false },
  /** How the upstream's stream becomes events when it is not SSE (the AWS event stream): each is re-framed as SSE. */
  reframing?: UpstreamEventReaderFactory,
): ChunkStream {
  const delivered = new DeliveredText({ carriesText: context.format.streamEventCarriesText, textOf: context.format.streamEventText });
  // The upstream's error events hold its own text: scrubbed, whole, before they are relayed.
  const scrubber = createErrorEventScrubber((text) => scrubUpstreamText(text, context.route.target));
  let reframed = '';
  const reader = (reframing ?? createSseReader)((event) => {
    tap.observe(event.event, event.data);
    if (!scope.clientHasLeft) delivered.add(event.data);
    scrubber.observe(event.event, event.data);
    if (reframing !== undefined) reframed += sseFrame(event.event, event.data);
  });
  /** The bytes to send for a chunk just read: the chunk itself, or the events it completed as SSE. */
  const outgoing = (chunk: Buffer): Buffer | undefined => {
    if (reframing === undefined) return chunk;
    const text = reframed;
    reframed = '';
    return text === '' ? undefined : Buffer.from(text);
  };
  const filter = dropUsageChunk ? createUsageChunkFilter() : undefined;
  const chunks = response.body.chunks();
  let failure: GatewayError | undefined;
  let sentAnything = false;
  let started = false;
  /** True while a chunk is with the client's writer: a `return()` there means the client left. */
  let handedOver = false;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done === true) break;
      const chunk = next.value;
      if (!started) {
        if (reframing === undefined && !startsLikeEventStream(chunk)) throw new GatewayError('upstream_malformed_answer', 'The upstream answered with something that is not an event stream.');
        started = true;
      }
      reader.push(chunk);
      const sending = outgoing(chunk);
      if (sending === undefined) continue;
      const filtered = filter === undefined ? sending : filter.push(sending);
      const relayed = filtered === undefined ? undefined : scrubber.push(filtered);
      if (relayed === undefined) continue;
      sentAnything = true;
      scope.commit();
      handedOver = true;
      yield relayed;
      handedOver = false;
    }
    reader.flush();
    const last = reframing === undefined ? undefined : outgoing(Buffer.alloc(0));
    const lastRelayed = last === undefined ? undefined : scrubber.push(last);
    if (lastRelayed !== undefined) yield lastRelayed;
    const rest = scrubber.end(filter?.flush());
    if (rest !== undefined) yield rest;
  } catch (error) {
    if (!sentAnything) {
      await chunks.return?.().catch(() => undefined);
      throw error;
    }
    // Stopped by a shutdown: the client learns that, not that its upstream call broke.
    const reason = context.clientSignal.reason;
    failure = reason === undefined ? upstreamTransportError(error) : toGatewayError(reason);
  } finally {
    await readOnIfClientLeft(scope, chunks, handedOver, { observe: (chunk) => reader.push(chunk), enough: () => tap.ended(), bodyEnded: () => reader.flush() });
    // Cut before its last event, or ended by a server that never states usage: its output is counted when the call is metered.
    if (sentAnything && (!tap.ended() || tap.usage() === undefined) && !delivered.empty) outcome.deliveredOutput = delivered;
  }
  if (tap.ended()) return;
  failure ??= new GatewayError('upstream_invalid_response', 'The upstream ended the stream before it was complete.');
  outcome.failed = true;
  yield textEncoder.encode(context.format.encodeStreamError(failure, context.encode.requestId));
}

const textEncoder = new TextEncoder();

/** One event as SSE; data of several lines takes one `data:` line each. */
function sseFrame(event: string | undefined, data: string): string {
  const name = event === undefined ? '' : `event: ${event}\n`;
  return `${name}data: ${data.split('\n').join('\ndata: ')}\n\n`;
}

/**
 * Whether a stream's first bytes can be SSE: a field name (`data`, `event`, `id`, `retry`), a
 * comment or a blank line. Anything else (an HTML error page, binary garbage) is refused before
 * the client sees it, so the call can still fall back; one byte is looked at, once per stream.
 */
function startsLikeEventStream(chunk: Buffer): boolean {
  const first = chunk[0];
  return first === undefined || [0x64, 0x65, 0x69, 0x72, 0x3a, 0x0a, 0x0d, 0x20, 0xef].includes(first);
}
const usageObjectMarker = Buffer.from('"usage":{');

/** Drops the usage-only chat chunk; every other byte passes unchanged. */
function createUsageChunkFilter(): { push(chunk: Buffer): Uint8Array | undefined; flush(): Uint8Array | undefined } {
  const decoder = new TextDecoder();
  const splitter = createSseEventSplitter();
  let holdingPartialEvent = false;
  const keep = (events: string[]): Uint8Array | undefined => {
    const kept = events.filter((event) => !isUsageOnlyChunk(event));
    return kept.length > 0 ? textEncoder.encode(kept.join('')) : undefined;
  };
  return {
    push(chunk) {
      // Upstreams write whole events per chunk: those without a usage object pass untouched.
      if (!holdingPartialEvent && chunk.indexOf(usageObjectMarker) === -1 && endsWithBlankLine(chunk)) return chunk;
      const events = splitter.push(decoder.decode(chunk, { stream: true }));
      holdingPartialEvent = !endsWithBlankLine(chunk);
      return keep(events);
    },
    flush() {
      return keep(splitter.flush());
    },
  };
}

function endsWithBlankLine(chunk: Buffer): boolean {
  const length = chunk.length;
  return length >= 2 && chunk[length - 1] === 0x0a && (chunk[length - 2] === 0x0a || (chunk[length - 2] === 0x0d && chunk[length - 3] === 0x0a));
}

function isUsageOnlyChunk(eventText: string): boolean {
  return eventText.includes('"choices":[]') && eventText.includes('"usage":{');
}
