import type { ClientScope } from '../../call/client-scope.js';
import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationRequest, ImageGenerationResult } from '../../ir/image-generation.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import { inUpstreamSlot } from '../../routing/in-upstream-slot.js';
import { runWithFallback, type AttemptReport, type FallbackPolicy } from '../../routing/run-with-fallback.js';
import type { UpstreamCaps } from '../../governance/upstream-caps/upstream-caps.js';
import { parseUpstreamJson } from '../../upstream/parse-upstream-json.js';
import { flattenHeaders, readBodyText, upstreamTransportError } from '../../upstream/upstream-client.js';
import { sendAuthorized } from '../../upstream/send-authorized.js';
import { imageRoutes, type ImageRoute } from './image-routes.js';
import { generateByJobs, type ImageJobSettings } from './generate-by-jobs.js';

export interface ImageCallSettings {
  readonly fallback: FallbackPolicy;
  readonly timeoutMs: number;
  /** How long a stream the client left while an image was under way is still read for its completion. */
  readonly usageWaitMs: number;
  readonly signal: ClientScope;
  readonly onFailure: (report: AttemptReport) => void;
  /** Concurrency caps of the upstreams: a whole answer holds its slot until it is read, a stream until it ends. */
  readonly caps: UpstreamCaps;
  /** How upstreams that answer with jobs are polled while the client waits. */
  readonly jobs: ImageJobSettings;
}

export interface GeneratedImages {
  readonly result: ImageGenerationResult;
  readonly route: CatalogRoute;
}

/** One attempt on one route, the answer read whole; a failure throws, for the fallback to judge. */
export async function generateOnRoute(candidate: ImageRoute, request: ImageGenerationRequest, settings: ImageCallSettings): Promise<ImageGenerationResult> {
  const { adapter, images, route } = candidate;
  if ('jobs' in images) return generateByJobs({ adapter, jobs: images.jobs, route }, request, settings);
  const call = images.buildRequest(request, route.target);
  const abort = settings.signal.child();
  const response = await sendAuthorized(adapter, route.target, { ...call, signal: abort, timeoutMs: route.timeoutMs ?? settings.timeoutMs });
  const text = await readBodyText(response).catch((error: unknown) => {
    throw upstreamTransportError(error, abort);
  });
  if (response.statusCode >= 400) throw decodeUpstreamError(adapter, route.target, response.statusCode, text, flattenHeaders(response.headers));
  const result = images.decodeResponse(parseUpstreamJson(text), request);
  if (result.images.length === 0) throw new GatewayError('upstream_invalid_response', 'The upstream answered without any image.');
  return result;
}

/**
 * Generates (or edits) images on the model's routes in turn: a retryable failure before any image
 * was produced falls back to the next route; a refusal (content policy, bad request) does not.
 */
export async function generateImages(model: CatalogModel, request: ImageGenerationRequest, editing: boolean, settings: ImageCallSettings): Promise<GeneratedImages> {
  const candidates = imageRoutes(model, editing);
  const byRoute = new Map(candidates.map((candidate) => [candidate.route, candidate]));
  return runWithFallback(
    candidates.map((candidate) => candidate.route),
    settings.fallback,
    settings.signal,
    (route) =>
      inUpstreamSlot(
        settings.caps,
        route,
        async () => ({ result: await generateOnRoute(byRoute.get(route) as ImageRoute, request, settings), route }),
        () => undefined,
      ),
    settings.onFailure,
  );
}
