import type { ChunkStream } from '../../call/commit-stream.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { StreamedCallScope } from '../../call/streamed-call-scope.js';
import { readOnIfClientLeft } from '../../call/read-on-if-client-left.js';
import type { UpstreamTarget } from '../../providers/provider-adapter.js';
import { scrubUpstreamText } from '../../providers/scrub-upstream-error.js';
import { createSseReader } from '../../upstream/sse-reader.js';
import { upstreamTransportError, type UpstreamResponse } from '../../upstream/upstream-client.js';
import { createErrorEventScrubber } from '../../upstream/error-event-scrubber.js';
import type { CompletedImagesTally } from './completed-images-tally.js';
import { imageErrorFrame } from './image-stream-frames.js';

const textEncoder = new TextEncoder();

/**
 * Relays an upstream Images API stream's bytes as they come, while the tally reads each event.
 * The events carry no model id, so nothing in them needs rewriting. An upstream that breaks off,
 * or closes before any image was completed, would leave the client without an end: an `error`
 * event in OpenAI's shape is added then, unless the upstream sent its own.
 *
 * A client that leaves after a partial image has that picture: the upstream is read on (within
 * the scope's wait) for the image's completion, which states its tier and usage; otherwise the
 * upstream call is stopped at once.
 */
export async function* relayImageStream(
  response: UpstreamResponse,
  tally: CompletedImagesTally,
  requestId: string,
  scope: StreamedCallScope,
  upstream: UpstreamTarget,
): ChunkStream {
  // The upstream's error events hold its own text: scrubbed, whole, before they are relayed.
  const scrubber = createErrorEventScrubber((text) => scrubUpstreamText(text, upstream));
  const reader = createSseReader((event) => {
    // Events read after the client left were never delivered.
    if (scope.clientHasLeft) tally.clientLeft();
    tally.observe(event.event, event.data);
    scrubber.observe(event.event, event.data);
  });
  const chunks = response.body.chunks();
  let cut: GatewayError | undefined;
  let sentAnything = false;
  /** True while a chunk is with the client's writer: a `return()` there means the client left. */
  let handedOver = false;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done === true) break;
      reader.push(next.value);
      const chunk = scrubber.push(next.value);
      if (chunk === undefined) continue;
      sentAnything = true;
      scope.commit();
      handedOver = true;
      yield chunk;
      handedOver = false;
    }
    reader.flush();
    const rest = scrubber.end();
    if (rest !== undefined) {
      sentAnything = true;
      scope.commit();
      yield rest;
    }
  } catch (error) {
    // Before anything was sent the failure is still an HTTP error, and may fall back.
    if (!sentAnything) {
      await chunks.return?.().catch(() => undefined);
      throw error;
    }
    cut = upstreamTransportError(error);
  } finally {
    // Given up at a chunk, or the client went while the next one was awaited: partials read from then on were never delivered.
    await readOnIfClientLeft(scope, chunks, handedOver, { observe: (chunk) => reader.push(chunk), enough: () => !tally.awaitingCompletion(), bodyEnded: () => reader.flush() });
    if (scope.clientHasLeft) tally.clientLeft();
  }
  const failure = tally.finish(cut);
  // An upstream that closed without a byte has not started the client's stream either.
  if (failure !== undefined && !sentAnything) throw failure;
  if (failure !== undefined) yield textEncoder.encode(imageErrorFrame(failure, requestId));
}
