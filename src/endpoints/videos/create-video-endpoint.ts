import type { CatalogModel, ModelCatalog } from '../../catalog/model-catalog.js';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import { sellableVariants } from '../../catalog/sellable-variants.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { chatFormat } from '../../formats/chat/index.js';
import type { VideoGenerationRequest } from '../../ir/video-generation.js';
import { isModelAllowed } from '../../keys/key-scope.js';
import { checkInputReference } from '../../media/videos/check-input-reference.js';
import { decodeVideoForm, decodeVideoJson, type ClientVideoRequest } from '../../media/videos/client-video-request.js';
import { selectVideoVariant, type SelectedVariant } from '../../media/videos/select-video-variant.js';
import { videoRoutes } from '../../media/videos/video-routes.js';
import { isMultipart, readMultipartForm } from '../../media/multipart/read-multipart-form.js';
import { resolveModel } from '../../routing/resolve-model.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import { assertJsonContentType, parseJsonObject, readRequestBody } from '../../http/read-request-body.js';
import type { MeteredCall } from '../metered-call/metered-call-state.js';
import type { MeteredAnswer, MeteredEndpoint } from '../metered-call/metered-endpoint.js';
import { submitMeteredVideo } from './submit-metered-video.js';

interface DecodedVideo {
  readonly model: CatalogModel;
  readonly selected: SelectedVariant;
  readonly request: VideoGenerationRequest;
}

/**
 * `POST /v1/videos`: checks the submit against what the model sells, records the job and hands it
 * to the upstream; answers with the job (docs/api.md, "Videos"). Billing happens when the job
 * ends: its reservation, made with the job, is the job's and settled by the job's ledger entry.
 */
export const createVideoEndpoint: MeteredEndpoint<ClientVideoRequest, DecodedVideo, MeteredAnswer> = {
  family: 'videos',
  format: chatFormat,
  read: readClientRequest,
  decode(call, asked) {
    const model = modelFor(call.snapshot.catalog, asked.model, call.key);
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
    return { model, selected, request };
  },
  worstCase: undefined,
  send: (call, { model, selected, request }) =>
    submitMeteredVideo(call, { model, selected, request, routes: videoRoutes(model), send: (route) => route.videos.buildSubmit(request, route.route.target) }),
  meter: undefined,
  meterFailure: undefined,
};

async function readClientRequest(call: MeteredCall): Promise<ClientVideoRequest> {
  const incoming = call.exchange.incoming;
  const contentType = incoming.headers['content-type'];
  const limit = call.services.config.server.body_limit_bytes;
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
