import type { AbortScope } from '../../call/abort-scope.js';
import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationRequest, ImageGenerationResult } from '../../ir/image-generation.js';
import type { ImageGeneration, ProviderAdapter } from '../../providers/provider-adapter.js';
import { adapterFor } from '../../providers/registry.js';
import { runWithFallback, type AttemptReport, type FallbackPolicy } from '../../routing/run-with-fallback.js';
import { parseUpstreamJson } from '../../upstream/parse-upstream-json.js';
import { flattenHeaders, readBodyText, sendUpstream, upstreamTransportError } from '../../upstream/upstream-client.js';

export interface ImageCallSettings {
  readonly fallback: FallbackPolicy;
  readonly timeoutMs: number;
  readonly signal: AbortScope;
  readonly onFailure: (report: AttemptReport) => void;
}

export interface GeneratedImages {
  readonly result: ImageGenerationResult;
  readonly route: CatalogRoute;
}

interface ImageRoute {
  readonly route: CatalogRoute;
  readonly adapter: ProviderAdapter;
  readonly images: ImageGeneration;
}

/** The model's routes whose upstream can do what is asked (generate, or edit), in order. */
function imageRoutes(model: CatalogModel, editing: boolean): ImageRoute[] {
  return model.routes.flatMap((route) => {
    const adapter = adapterFor(route.target);
    const images = adapter.images;
    if (images === undefined || (editing && !images.edits)) return [];
    return [{ route, adapter, images }];
  });
}

/**
 * Generates (or edits) images on the model's routes in turn: a retryable failure before any image
 * was produced falls back to the next route; a refusal (content policy, bad request) does not.
 */
export async function generateImages(model: CatalogModel, request: ImageGenerationRequest, editing: boolean, settings: ImageCallSettings): Promise<GeneratedImages> {
  const candidates = imageRoutes(model, editing);
  if (candidates.length === 0) {
    throw new GatewayError('no_route', `No upstream of the model '${model.id}' can ${editing ? 'edit' : 'generate'} images.`, { param: 'model' });
  }
  const byRoute = new Map(candidates.map((candidate) => [candidate.route, candidate]));
  return runWithFallback(
    candidates.map((candidate) => candidate.route),
    settings.fallback,
    settings.signal,
    async (route) => {
      const { adapter, images } = byRoute.get(route) as ImageRoute;
      const call = images.buildRequest(request, route.target);
      const abort = settings.signal.child();
      const response = await sendUpstream({ ...call, signal: abort, timeoutMs: route.timeoutMs ?? settings.timeoutMs });
      const text = await readBodyText(response).catch((error: unknown) => {
        throw upstreamTransportError(error, abort);
      });
      if (response.statusCode >= 400) throw adapter.decodeError(response.statusCode, text, flattenHeaders(response.headers));
      const result = images.decodeResponse(parseUpstreamJson(text), request);
      if (result.images.length === 0) throw new GatewayError('upstream_invalid_response', 'The upstream answered without any image.');
      return { result, route };
    },
    settings.onFailure,
  );
}
