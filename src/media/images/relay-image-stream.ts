import type { ChunkStream } from '../../call/commit-stream.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamTarget } from '../../providers/provider-adapter.js';
import { scrubUpstreamText } from '../../providers/scrub-upstream-error.js';
import { createSseReader } from '../../upstream/sse-reader.js';
import { upstreamTransportError, type UpstreamResponse } from '../../upstream/upstream-client.js';
import { isUpstreamErrorEvent } from '../../upstream/upstream-error-event.js';
import type { CompletedImagesTally } from './completed-images-tally.js';
import { imageErrorFrame } from './image-stream-frames.js';

const textEncoder = new TextEncoder();

/**
 * Relays an upstream Images API stream's bytes as they come, while the tally reads each event.
 * The events carry no model id, so nothing in them needs rewriting. An upstream that breaks off,
 * or closes before any image was completed, would leave the client without an end: an `error`
 * event in OpenAI's shape is added then, unless the upstream sent its own.
 */
export async function* relayImageStream(response: UpstreamResponse, tally: CompletedImagesTally, requestId: string, upstream: UpstreamTarget): ChunkStream {
  // Set when a chunk ended an error event of the upstream's: that chunk is scrubbed before it is relayed.
  let errorEventInChunk = false;
  const reader = createSseReader((event) => {
    tally.observe(event.event, event.data);
    if (isUpstreamErrorEvent(event.event, event.data)) errorEventInChunk = true;
  });
  let cut: GatewayError | undefined;
  let sentAnything = false;
  try {
    for await (const chunk of response.body.chunks()) {
      reader.push(chunk);
      sentAnything = true;
      if (!errorEventInChunk) {
        yield chunk;
        continue;
      }
      errorEventInChunk = false;
      yield textEncoder.encode(scrubUpstreamText(chunk.toString('utf8'), upstream));
    }
    reader.flush();
  } catch (error) {
    // Before anything was sent the failure is still an HTTP error, and may fall back.
    if (!sentAnything) throw error;
    cut = upstreamTransportError(error);
  }
  const failure = tally.finish(cut);
  // An upstream that closed without a byte has not started the client's stream either.
  if (failure !== undefined && !sentAnything) throw failure;
  if (failure !== undefined) yield textEncoder.encode(imageErrorFrame(failure, requestId));
}
