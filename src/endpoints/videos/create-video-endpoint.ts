import type { CatalogModel, ModelCatalog } from '../../catalog/model-catalog.js';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import { sellableVariants } from '../../catalog/sellable-variants.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoGenerationRequest } from '../../ir/video-generation.js';
import { isModelAllowed } from '../../keys/key-scope.js';
import { checkInputReference } from '../../media/videos/check-input-reference.js';
import { decodeVideoForm, decodeVideoJson, type ClientVideoRequest } from '../../media/videos/client-video-request.js';
import { selectVideoVariant } from '../../media/videos/select-video-variant.js';
import { submitVideoJob } from '../../media/videos/submit-video-job.js';
import { videoJobObject } from '../../media/videos/video-job-object.js';
import { videoRoutes } from '../../media/videos/video-routes.js';
import { isMultipart, readMultipartForm } from '../../media/multipart/read-multipart-form.js';
import { resolveModel } from '../../routing/resolve-model.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { CallLimits } from '../../governance/key-limits.js';
import { errorResponse } from '../../http/error-response.js';
import { withLimitHeaders } from '../../http/with-limit-headers.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { assertJsonContentType, parseJsonObject, readRequestBody } from '../../http/read-request-body.js';
import { idempotencyKey } from './idempotency-key.js';
import { jsonAnswer, videoCaller } from './video-caller.js';
import { videoSubmitSettings } from './video-submit-settings.js';

async function readClientRequest(context: GatewayContext, services: GatewayServices): Promise<ClientVideoRequest> {
  const incoming = context.env.incoming;
  const contentType = incoming.headers['content-type'];
  const limit = services.config.server.body_limit_bytes;
  if (isMultipart(contentType)) return decodeVideoForm(await readMultipartForm(incoming, limit));
  try {
    assertJsonContentType(contentType);
  } catch {
    throw new GatewayError('unsupported_media_type', `Expected a multipart/form-data or JSON body${contentType ? `, got '${contentType}'` : ''}.`);
  }
  return decodeVideoJson(parseJsonObject((await readRequestBody(incoming, limit)).text));
}

/** `model` may be left out: the first video model the caller may use serves it. */
function modelFor(catalog: ModelCatalog, name: string | undefined, key: ApiKeyRecord | undefined): CatalogModel {
  if (name !== undefined) return resolveModel(catalog, name, 'video', key);
  const first = catalog.models.find((model) => model.outputModality === 'video' && model.callable && isModelAllowed(key, model.id));
  if (first === undefined) throw new GatewayError('model_not_found', 'No video model is available to this key.', { param: 'model' });
  return first;
}

/**
 * `POST /v1/videos`: checks the submit against what the model sells, records the job and hands it
 * to the upstream; answers with the job (docs/api.md, "Videos"). Billing happens when the job ends.
 */
export async function handleCreateVideo(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  let limits: CallLimits | undefined;
  try {
    const key = await videoCaller(context, services);
    const asked = await readClientRequest(context, services);
    const callLimits = await services.limits.admit(key);
    limits = callLimits;
    const { catalog, routing } = services.catalog.current();
    const model = modelFor(catalog, asked.model, key);
    if (model.video === undefined) throw new GatewayError('internal_error', `The video model '${model.id}' has no record.`);
    const selected = selectVideoVariant(model.id, sellableVariants(model.video, priceAt(model.prices, new Date())), asked);
    const inputReference = checkInputReference(model.id, asked.inputReference, model.video.maxInputReferenceBytes);
    const request: VideoGenerationRequest = {
      prompt: asked.prompt,
      mode: selected.variant.mode,
      seconds: selected.seconds,
      size: selected.variant.size,
      resolution: selected.variant.resolution,
      aspectRatio: selected.variant.aspectRatio,
      ...(inputReference === undefined ? {} : { inputReference }),
    };
    const { job } = await submitVideoJob(
      {
        keyId: key?.id ?? null,
        idempotencyKey: idempotencyKey(context),
        model,
        selected,
        request,
        routes: videoRoutes(model),
        send: (route) => route.videos.buildSubmit(request, route.route.target),
        budget: callLimits,
      },
      videoSubmitSettings(services, routing, requestId, model.id, key?.id),
    );
    services.videos.worker.poke();
    // The job's reservation is the job's now: its ledger entry settles it when the job ends.
    callLimits.finish();
    return withLimitHeaders(jsonAnswer(videoJobObject(job), requestId), callLimits);
  } catch (error) {
    limits?.finish();
    return withLimitHeaders(errorResponse(error, requestId), limits);
  }
}
