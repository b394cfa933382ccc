import type { ClientScope } from '../../call/client-scope.js';
import type { CatalogModel, ModelCatalog } from '../../catalog/model-catalog.js';
import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import { isPriced } from '../../catalog/pricing/is-priced.js';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import { unpricedModelRefusal } from '../../governance/budgets/unpriced-model-refusal.js';
import { GatewayError, toGatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../ir/image-generation.js';
import { assertEndpointAllowed, isModelAllowed } from '../../keys/key-scope.js';
import { imageAnswer } from '../../media/images/image-answer.js';
import { worstImageCostNanoUsd } from '../../governance/worst-case/image-worst-case.js';
import { imageCharge } from '../../media/images/image-charge.js';
import { checkImageRules } from '../../media/images/check-image-rules.js';
import { decodeImageFields, type ClientImageRequest } from '../../media/images/client-image-request.js';
import { generateImages } from '../../media/images/generate-images.js';
import { mapLegacyRequest } from '../../media/images/map-legacy-request.js';
import { readImageForm } from '../../media/images/read-image-form.js';
import { isMultipart } from '../../media/multipart/read-multipart-form.js';
import type { CallLimits } from '../../governance/key-limits.js';
import { meterImageCall } from '../../metering/meter-image-call.js';
import { withLimitHeaders } from '../../http/with-limit-headers.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { fallbackPolicy } from '../../routing/fallback-policy.js';
import type { AttemptReport } from '../../routing/run-with-fallback.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { assertJsonContentType, parseJsonObject, readRequestBody } from '../../http/read-request-body.js';
import { requestBaseUrl } from '../../http/request-base-url.js';
import { clientAbortScope, nodeRequestHeaders } from '../../http/request-headers.js';
import { streamedImagesAnswer } from './streamed-images-answer.js';

/** Edits come as a multipart form (how the `openai` SDK sends files); anything else is a 415. */
function assertMultipart(contentType: string | undefined): void {
  if (!isMultipart(contentType)) {
    throw new GatewayError('unsupported_media_type', `Expected a multipart/form-data body${contentType ? `, got '${contentType}'` : ''}.`);
  }
}

async function readClientRequest(context: GatewayContext, services: GatewayServices, editing: boolean): Promise<ClientImageRequest> {
  const incoming = context.env.incoming;
  const contentType = incoming.headers['content-type'];
  const limit = services.config.server.body_limit_bytes;
  if (!editing) {
    assertJsonContentType(contentType);
    return decodeImageFields(parseJsonObject((await readRequestBody(incoming, limit)).text));
  }
  assertMultipart(contentType);
  const form = await readImageForm(incoming, limit);
  return { ...decodeImageFields(form.fields), images: form.images, ...(form.mask === undefined ? {} : { mask: form.mask }) };
}

/** `model` may be left out: the first image model the caller may use serves it. */
function modelFor(catalog: ModelCatalog, name: string | undefined, key: ApiKeyRecord | undefined): CatalogModel {
  if (name !== undefined) return resolveModel(catalog, name, 'image', key);
  const first = catalog.models.find((model) => model.outputModality === 'image' && model.callable && isModelAllowed(key, model.id));
  if (first === undefined) throw new GatewayError('model_not_found', 'No image model is available to this key.', { param: 'model' });
  return first;
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

/**
 * A stream carries every image as base64 in its events, as OpenAI's does: asking for URLs too is
 * a contradiction the client should hear about, rather than get base64 it did not ask for.
 */
function assertStreamableFormat(request: ClientImageRequest): void {
  if (request.stream === true && request.response_format === 'url') {
    throw new GatewayError('invalid_field', "response_format 'url' cannot be streamed: a stream sends each image as base64. Send response_format 'b64_json' or leave it out, or send stream: false.", { param: 'response_format' });
  }
}

/**
 * `POST /images/generations` and `POST /images/edits`: checked against the model's rules (a
 * legacy alias against its own first, then mapped), generated on the first route that can, billed
 * per image at the tier made, answered in the Images API shape.
 */
export async function handleImages(context: GatewayContext, services: GatewayServices, editing: boolean): Promise<Response> {
  const requestId = context.get('requestId');
  const startedAt = Date.now();
  let metered: { key: ApiKeyRecord | undefined; model: CatalogModel } | undefined;
  let limits: CallLimits | undefined;
  let signal: ClientScope | undefined;
  try {
    const key = await services.authenticator.authenticate(nodeRequestHeaders(context.env.incoming));
    assertEndpointAllowed(key, 'images');
    const asked = await readClientRequest(context, services, editing);
    const callLimits = await services.limits.admit(key);
    limits = callLimits;
    // One snapshot for the whole call: a reload while it runs changes nothing it uses.
    const { catalog, routing } = services.catalog.current();
    const model = modelFor(catalog, asked.model, key);
    const rules = model.image?.rules;
    if (rules === undefined) throw new GatewayError('internal_error', `The image model '${model.id}' has no rules.`);
    const legacy = asked.model === undefined ? undefined : catalog.legacyImageAlias(asked.model);
    if (legacy !== undefined) checkImageRules(asked, legacy.rules, legacy.id, editing);
    const request = legacy === undefined ? asked : mapLegacyRequest(asked, legacy, rules);
    checkImageRules(request, rules, model.id, editing);
    assertStreamableFormat(asked);
    const tierAsked = { ...(request.quality === undefined ? {} : { quality: request.quality }), ...(request.size === undefined ? {} : { size: request.size }) };
    const price = priceAt(model.prices, new Date(startedAt));
    // What an unpriced model's images cost is unknown: a budget could not be kept on them.
    if (callLimits.reserves && !isPriced('image', price)) throw unpricedModelRefusal(model.id);
    await callLimits.reserve(requestId, worstImageCostNanoUsd(price, tierAsked, request.n ?? 1, Buffer.byteLength(request.prompt)));
    metered = { key, model };
    signal = clientAbortScope(context.env.outgoing, services.drain);
    const settings = {
      fallback: fallbackPolicy(routing, services.circuitBreakers, key?.id),
      timeoutMs: routing.timeout_ms,
      usageWaitMs: routing.usage_wait_after_disconnect_ms,
      signal,
      caps: services.upstreamCaps,
      onFailure: (report: AttemptReport) => {
        services.metrics.observeUpstreamError(report.route.target.providerName, model.id, report.error.code);
        services.logger.warn({ requestId, provider: report.route.target.providerName, attempt: report.attempt, code: report.error.code }, 'upstream image attempt failed');
      },
    };
    if (request.stream === true) {
      return await streamedImagesAnswer(services, { requestId, key, model, request: neutralRequest(request), editing, asked: tierAsked, settings, startedAt, limits: callLimits });
    }
    const generated = await generateImages(model, neutralRequest(request), editing, settings);
    const charge = imageCharge(price, generated.result, tierAsked);
    if (charge.tierAssumed) services.logger.warn({ requestId, model: model.id, quality: charge.quality, size: charge.size }, 'image tier not reported; billed at the dearest fitting tier');
    const body = await imageAnswer(generated.result, {
      modelId: model.id,
      responseFormat: request.response_format ?? rules.defaultResponseFormat,
      charge,
      publisher: services.imageContent,
      baseUrl: requestBaseUrl(context.env.incoming, services.config.server.public_url),
    });
    const entry = meterImageCall(services.ledger, { requestId, key, model, route: generated.route, status: 200, images: charge.count, usage: generated.result.usage, costNanoUsd: charge.costNanoUsd, startedAt });
    callLimits.finish(entry);
    // Encoded once into bytes: handing the framework a multi-megabyte string makes it flatten,
    // measure and encode it again (a third of an image call's CPU in bench/README.md).
    return context.body(Buffer.from(JSON.stringify(body)), 200, {
      'content-type': 'application/json',
      'x-request-id': requestId,
      'x-request-cost-usd': formatNanoUsd(charge.costNanoUsd),
      ...callLimits.headers(undefined),
    });
  } catch (error) {
    // A call stopped by a shutdown says so, rather than what its cancelled upstream call threw.
    const failure = toGatewayError(signal?.reason ?? error);
    // A call that got as far as an upstream is recorded, at 0: nothing was delivered.
    limits?.finish(metered === undefined ? undefined : meterImageCall(services.ledger, { requestId, ...metered, route: undefined, status: failure.status, images: 0, usage: undefined, costNanoUsd: 0n, startedAt }));
    if (failure.status >= 500) services.logger.warn({ requestId, code: failure.code, err: failure.cause }, failure.message);
    return withLimitHeaders(errorResponse(failure, requestId), limits);
  }
}
