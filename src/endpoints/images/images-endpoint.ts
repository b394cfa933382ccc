import type { CatalogRoute } from '../../catalog/model-catalog.js';
import { isPriced } from '../../catalog/pricing/is-priced.js';
import { chatFormat } from '../../formats/chat/index.js';
import { unpricedModelRefusal } from '../../governance/budgets/unpriced-model-refusal.js';
import { worstImageCostNanoUsd } from '../../governance/worst-case/image-worst-case.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { Usage } from '../../ir/usage.js';
import { imageAnswer } from '../../media/images/image-answer.js';
import { imageCharge } from '../../media/images/image-charge.js';
import { decodeImageFields, type ClientImageRequest } from '../../media/images/client-image-request.js';
import { generateImages, type ImageCallSettings } from '../../media/images/generate-images.js';
import { readImageForm } from '../../media/images/read-image-form.js';
import { isMultipart } from '../../media/multipart/read-multipart-form.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { LedgerWriter } from '../../metering/ledger-writer.js';
import { meterImageCall } from '../../metering/meter-image-call.js';
import { fallbackPolicy } from '../../routing/fallback-policy.js';
import type { AttemptReport } from '../../routing/run-with-fallback.js';
import { assertJsonContentType, parseJsonObject, readRequestBody } from '../../http/read-request-body.js';
import { requestBaseUrl } from '../../http/request-base-url.js';
import type { MeteredCall } from '../metered-call/metered-call-state.js';
import type { MeteredAnswer, MeteredEndpoint } from '../metered-call/metered-endpoint.js';
import { decodeImageCall, type DecodedImageCall } from './decode-image-call.js';
import { streamedImagesAnswer } from './streamed-images-answer.js';

/** What an image call's ledger entry is made of: the images handed on, at their tier. */
export interface ImagesDelivered {
  readonly route: CatalogRoute;
  readonly images: number;
  readonly usage: Usage | undefined;
  readonly costNanoUsd: bigint;
}

/** An image answer: whole (its cost known now) or a stream (known when it ends). */
export interface ImagesAnswer extends MeteredAnswer {
  readonly delivered: ImagesDelivered | Promise<ImagesDelivered>;
}

/**
 * `POST /images/generations` and `POST /images/edits`: checked against the model's rules
 * (`decode-image-call.ts`), generated on the first route that can, billed per image at the tier
 * made, answered in the Images API shape (or its event stream).
 */
export class ImagesEndpoint implements MeteredEndpoint<ClientImageRequest, DecodedImageCall, ImagesAnswer> {
  readonly family = 'images';
  readonly format = chatFormat;

  constructor(private readonly editing: boolean) {}

  read(call: MeteredCall): Promise<ClientImageRequest> {
    return readClientRequest(call, this.editing);
  }

  decode(call: MeteredCall, asked: ClientImageRequest): DecodedImageCall {
    return decodeImageCall(call, asked, this.editing);
  }

  worstCase(_call: MeteredCall, { model, price, tierAsked, request }: DecodedImageCall): bigint {
    // What an unpriced model's images cost is unknown: a budget could not be kept on them.
    if (!isPriced('image', price)) throw unpricedModelRefusal(model.id);
    return worstImageCostNanoUsd(price, tierAsked, request.n ?? 1, Buffer.byteLength(request.prompt));
  }

  async send(call: MeteredCall, decoded: DecodedImageCall): Promise<ImagesAnswer> {
    const { services, requestId } = call;
    const { model, price, tierAsked } = decoded;
    const settings = imageCallSettings(call, model.id);
    if (decoded.request.stream === true) return streamedImagesAnswer(call, decoded, this.editing, settings);
    const generated = await generateImages(model, decoded.neutral, this.editing, settings);
    const charge = imageCharge(price, generated.result, tierAsked);
    if (charge.tierAssumed) services.logger.warn({ requestId, model: model.id, quality: charge.quality, size: charge.size }, 'image tier not reported; billed at the dearest fitting tier');
    const body = await imageAnswer(generated.result, {
      modelId: model.id,
      responseFormat: decoded.request.response_format ?? decoded.rules.defaultResponseFormat,
      charge,
      publisher: services.imageContent,
      baseUrl: requestBaseUrl(call.exchange.incoming, services.config.server.public_url),
    });
    // Encoded once into bytes: handing the framework a multi-megabyte string makes it flatten,
    // measure and encode it again (a third of an image call's CPU in bench/README.md).
    return {
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify(body)),
      delivered: { route: generated.route, images: charge.count, usage: generated.result.usage, costNanoUsd: charge.costNanoUsd },
    };
  }

  meter(ledger: LedgerWriter, call: MeteredCall, decoded: DecodedImageCall, answer: ImagesAnswer): LedgerEntry | Promise<LedgerEntry> {
    const { delivered } = answer;
    if (delivered instanceof Promise) return delivered.then((streamed) => meterImages(ledger, call, decoded, streamed));
    return meterImages(ledger, call, decoded, delivered);
  }

  /** A call that got as far as an upstream is recorded, at 0: nothing was delivered. */
  meterFailure(ledger: LedgerWriter, call: MeteredCall, { model }: DecodedImageCall, status: number): LedgerEntry {
    return meterImageCall(ledger, { requestId: call.requestId, key: call.key, model, route: undefined, status, images: 0, usage: undefined, costNanoUsd: 0n, startedAt: call.startedAt });
  }
}

function meterImages(ledger: LedgerWriter, call: MeteredCall, { model }: DecodedImageCall, delivered: ImagesDelivered): LedgerEntry {
  return meterImageCall(ledger, { requestId: call.requestId, key: call.key, model, status: 200, ...delivered, startedAt: call.startedAt });
}

function imageCallSettings(call: MeteredCall, modelId: string): ImageCallSettings {
  const { services, requestId } = call;
  const { routing } = call.snapshot;
  return {
    fallback: fallbackPolicy(routing, services.circuitBreakers, call.key?.id),
    timeoutMs: routing.timeout_ms,
    usageWaitMs: routing.usage_wait_after_disconnect_ms,
    signal: call.abortScope(),
    caps: services.upstreamCaps,
    jobs: {
      pollIntervalMs: services.config.images.job_poll_interval_ms,
      timeoutMs: services.config.images.job_timeout_ms,
      maxBytes: services.config.images.download_max_bytes,
      privateAddresses: services.config.videos.download_private_addresses,
    },
    onFailure: (report: AttemptReport) => {
      services.metrics.observeUpstreamError(report.route.target.providerName, modelId, report.error.code);
      services.logger.warn({ requestId, provider: report.route.target.providerName, attempt: report.attempt, code: report.error.code }, 'upstream image attempt failed');
    },
  };
}

/** Generations come as JSON; edits as a multipart form (how the `openai` SDK sends files), anything else is a 415. */
async function readClientRequest(call: MeteredCall, editing: boolean): Promise<ClientImageRequest> {
  const incoming = call.exchange.incoming;
  const contentType = incoming.headers['content-type'];
  const limit = call.services.config.server.body_limit_bytes;
  if (!editing) {
    assertJsonContentType(contentType);
    return decodeImageFields(parseJsonObject((await readRequestBody(incoming, limit)).text));
  }
  if (!isMultipart(contentType)) {
    throw new GatewayError('unsupported_media_type', `Expected a multipart/form-data body${contentType ? `, got '${contentType}'` : ''}.`);
  }
  const form = await readImageForm(incoming, limit);
  return { ...decodeImageFields(form.fields), images: form.images, ...(form.mask === undefined ? {} : { mask: form.mask }) };
}
