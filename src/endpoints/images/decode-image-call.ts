import type { CatalogModel, ModelCatalog } from '../../catalog/model-catalog.js';
import type { PriceEntry } from '../../catalog/pricing/model-price.js';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../ir/image-generation.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import { isModelAllowed } from '../../keys/key-scope.js';
import { checkImageRules } from '../../media/images/check-image-rules.js';
import type { ImageAsked } from '../../media/images/image-charge.js';
import { worstImagePixels } from '../../media/images/worst-image-pixels.js';
import type { ClientImageRequest } from '../../media/images/client-image-request.js';
import { mapLegacyRequest } from '../../media/images/map-legacy-request.js';
import type { ImageRules } from '../../catalog/records/image-model-record.js';
import { resolveModel } from '../../routing/resolve-model.js';
import type { MeteredCall } from '../metered-call/metered-call-state.js';

/** An image call once decoded: the model, the request in its terms, the tier asked and its price. */
export interface DecodedImageCall {
  readonly model: CatalogModel;
  readonly rules: ImageRules;
  /** The client's request, mapped from a legacy model's terms to the serving model's. */
  readonly request: ClientImageRequest;
  readonly neutral: ImageGenerationRequest;
  /** The tier asked, and the most pixels an image of it may have (for prices per megapixel). */
  readonly tierAsked: ImageAsked;
  readonly price: PriceEntry | undefined;
}

/**
 * Checks an image request against its model's rules (a legacy alias against its own first, then
 * mapped) and makes the request the upstream gets.
 */
export function decodeImageCall(call: MeteredCall, asked: ClientImageRequest, editing: boolean): DecodedImageCall {
  const { catalog } = call.snapshot;
  const model = modelFor(catalog, asked.model, call.key);
  const rules = model.image?.rules;
  if (rules === undefined) throw new GatewayError('internal_error', `The image model '${model.id}' has no rules.`);
  const legacy = asked.model === undefined ? undefined : catalog.legacyImageAlias(asked.model);
  if (legacy !== undefined) checkImageRules(asked, legacy.rules, legacy.id, editing);
  const request = legacy === undefined ? asked : mapLegacyRequest(asked, legacy, rules);
  checkImageRules(request, rules, model.id, editing);
  assertStreamableFormat(asked);
  const tierAsked: ImageAsked = {
    ...(request.quality === undefined ? {} : { quality: request.quality }),
    ...(request.size === undefined ? {} : { size: request.size }),
    worstPixels: worstImagePixels(rules, request.size),
  };
  return { model, rules, request, neutral: neutralRequest(request), tierAsked, price: priceAt(model.prices, new Date(call.startedAt)) };
}

/** `model` may be left out: the first image model the caller may use serves it. */
function modelFor(catalog: ModelCatalog, name: string | undefined, key: ApiKeyRecord | undefined): CatalogModel {
  if (name !== undefined) return resolveModel(catalog, name, 'image', key);
  const first = catalog.models.find((model) => model.outputModality === 'image' && model.callable && isModelAllowed(key, model.id));
  if (first === undefined) throw new GatewayError('model_not_found', 'No image model is available to this key.', { param: 'model' });
  return first;
}

/**
 * A stream carries every image as base64 in its events, as OpenAI's does: asking for URLs too is
 * a contradiction the client should hear about, rather than get base64 it did not ask for.
 */
function assertStreamableFormat(request: ClientImageRequest): void {
  if (request.stream === true && request.response_format === 'url') {
    throw new GatewayError('invalid_field', "response_format 'url' cannot be streamed: a stream sends each image as base64. Send response_format 'b64_json' or leave it out, or send stream: false.", { param: 'response_format' });
  }
}

function neutralRequest(request: ClientImageRequest): ImageGenerationRequest {
  return {
    prompt: request.prompt,
    n: request.n ?? 1,
    // Partial images exist only in a stream; without one the field is moot, as at OpenAI.
    partialImages: request.stream === true ? (request.partial_images ?? 0) : 0,
    ...(request.size === undefined ? {} : { size: request.size }),
    ...(request.quality === undefined ? {} : { quality: request.quality }),
    ...(request.output_format === undefined ? {} : { outputFormat: request.output_format as 'png' | 'jpeg' | 'webp' }),
    ...(request.output_compression === undefined ? {} : { outputCompression: request.output_compression }),
    ...(request.background === undefined ? {} : { background: request.background }),
    ...(request.moderation === undefined ? {} : { moderation: request.moderation }),
    ...(request.style === undefined ? {} : { style: request.style }),
    ...(request.user === undefined ? {} : { user: request.user }),
    ...(request.images === undefined ? {} : { inputImages: request.images }),
    ...(request.mask === undefined ? {} : { mask: request.mask }),
  };
}
