import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import { commitOnFirstChunk, type ChunkStream } from '../../call/commit-stream.js';
import { StreamedCallScope } from '../../call/streamed-call-scope.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationRequest, ImageGenerationResult } from '../../ir/image-generation.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { ImageGeneration, ImageStreamDecoder } from '../../providers/provider-adapter.js';
import { inUpstreamSlot } from '../../routing/in-upstream-slot.js';
import { runWithFallback } from '../../routing/run-with-fallback.js';
import { parseUpstreamJson } from '../../upstream/parse-upstream-json.js';
import { flattenHeaders, readBodyText, upstreamTransportError } from '../../upstream/upstream-client.js';
import { sendAuthorized } from '../../upstream/send-authorized.js';
import { createCompletedImagesTally } from './completed-images-tally.js';
import { generateOnRoute, type ImageCallSettings } from './generate-images.js';
import { imageRoutes, type ImageRoute } from './image-routes.js';
import { relayImageStream } from './relay-image-stream.js';
import { synthesizedImageStream } from './synthesized-image-stream.js';

/** A committed image stream: nothing is sent yet, but no fallback happens any more. */
export interface StreamedImages {
  readonly route: CatalogRoute;
  readonly body: ChunkStream;
  /** Settles when the stream is delivered or dropped, with the images completed by then: those are billed. */
  readonly completion: Promise<ImageGenerationResult>;
}

interface StreamCall {
  readonly request: ImageGenerationRequest;
  readonly editing: boolean;
  readonly settings: ImageCallSettings;
  readonly requestId: string;
}

/** The images as one answer, played out as the Images API stream. */
async function synthesizedStream(result: ImageGenerationResult, call: StreamCall): Promise<Omit<StreamedImages, 'route'>> {
  let delivered = 0;
  let settle: (result: ImageGenerationResult) => void = () => {};
  const completion = new Promise<ImageGenerationResult>((resolve) => (settle = resolve));
  const body = await commitOnFirstChunk(
    synthesizedImageStream(result, call.request, call.editing, () => (delivered += 1)),
    () => settle({ ...result, images: result.images.slice(0, delivered) }),
    () => {},
  );
  return { body, completion };
}

/** The upstream's own stream, relayed as it is: the client asked for the same events. */
async function relayedStream(candidate: ImageRoute, images: ImageGeneration, decoder: ImageStreamDecoder, call: StreamCall): Promise<Omit<StreamedImages, 'route'>> {
  const { adapter, route } = candidate;
  const tally = createCompletedImagesTally(decoder);
  const scope = new StreamedCallScope(call.settings.signal, call.settings.usageWaitMs, () => tally.awaitingCompletion());
  const abort = scope.upstream;
  const response = await sendAuthorized(adapter, route.target, { ...images.buildRequest(call.request, route.target), signal: abort, timeoutMs: route.timeoutMs ?? call.settings.timeoutMs });
  if (response.statusCode >= 400) {
    const text = await readBodyText(response).catch(() => '');
    throw decodeUpstreamError(adapter, route.target, response.statusCode, text, flattenHeaders(response.headers));
  }
  if (!String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
    // A compatible server that ignores `stream` answers whole; the gateway streams that itself.
    const text = await readBodyText(response).catch((error: unknown) => {
      throw upstreamTransportError(error, abort);
    });
    const result = images.decodeResponse(parseUpstreamJson(text), call.request);
    if (result.images.length === 0) throw new GatewayError('upstream_invalid_response', 'The upstream answered without any image.');
    return synthesizedStream(result, call);
  }
  let settle: (result: ImageGenerationResult) => void = () => {};
  const completion = new Promise<ImageGenerationResult>((resolve) => (settle = resolve));
  const body = await commitOnFirstChunk(
    relayImageStream(response, tally, call.requestId, scope, route.target),
    () => settle(tally.result()),
    // The relay decides, once given up, whether to read on for an image under way.
    () => {},
  ).catch((error: unknown) => {
    throw upstreamTransportError(error, abort);
  });
  return { body, completion };
}

/**
 * Generates (or edits) images as an Images API stream on the model's routes in turn. An upstream
 * that streams partial images has its stream relayed; any other (or a stream asked without
 * partial images) generates whole and the gateway plays the answer out as the same events. A
 * failure before the first event falls back as a whole answer's would.
 */
export async function streamImages(model: CatalogModel, request: ImageGenerationRequest, editing: boolean, settings: ImageCallSettings, requestId: string): Promise<StreamedImages> {
  const candidates = imageRoutes(model, editing);
  const byRoute = new Map(candidates.map((candidate) => [candidate.route, candidate]));
  const call: StreamCall = { request, editing, settings, requestId };
  return runWithFallback(
    candidates.map((candidate) => candidate.route),
    settings.fallback,
    settings.signal,
    (route) =>
      inUpstreamSlot(
        settings.caps,
        route,
        async () => {
          const candidate = byRoute.get(route) as ImageRoute;
          const { images } = candidate;
          // An upstream that answers with jobs has no stream of its own: its images are played out.
          const decoder = request.partialImages > 0 && !('jobs' in images) ? images.createStreamDecoder?.(request) : undefined;
          if (decoder !== undefined && !('jobs' in images)) return { route, ...(await relayedStream(candidate, images, decoder, call)) };
          // Asked whole: an upstream told `partial_images` would answer with a stream nobody reads.
          const result = await generateOnRoute(candidate, { ...request, partialImages: 0 }, settings);
          return { route, ...(await synthesizedStream(result, call)) };
        },
        (streamed) => streamed.completion,
      ),
    settings.onFailure,
  );
}
