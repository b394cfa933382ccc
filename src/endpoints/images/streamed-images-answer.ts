import type { CatalogModel } from '../../catalog/model-catalog.js';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import type { ImageGenerationRequest } from '../../ir/image-generation.js';
import { imageCharge } from '../../media/images/image-charge.js';
import type { ImageCallSettings } from '../../media/images/generate-images.js';
import { streamImages } from '../../media/images/stream-images.js';
import type { CallLimits } from '../../governance/key-limits.js';
import { meterImageCall } from '../../metering/meter-image-call.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import { chunkStreamResponse } from '../../http/chunk-stream-response.js';
import type { GatewayServices } from '../gateway-services.js';

export interface StreamedImagesCall {
  readonly requestId: string;
  readonly key: ApiKeyRecord | undefined;
  readonly model: CatalogModel;
  readonly request: ImageGenerationRequest;
  readonly editing: boolean;
  readonly asked: { quality?: string; size?: string };
  readonly settings: ImageCallSettings;
  readonly startedAt: number;
  readonly limits: CallLimits;
}

/**
 * `stream: true`: the Images API events as `text/event-stream`. The cost is known only when the
 * stream is over, so it goes to the ledger then (no cost header): the images completed by then at
 * their tier, and nothing at all for a stream cut before its first completed image.
 */
export async function streamedImagesAnswer(services: GatewayServices, call: StreamedImagesCall): Promise<Response> {
  const { requestId, model, startedAt } = call;
  const streamed = await streamImages(model, call.request, call.editing, call.settings, requestId);
  services.metrics.trackStream('images', streamed.completion);
  void streamed.completion.then((result) => {
    const charge = imageCharge(priceAt(model.prices, new Date(startedAt)), result, call.asked);
    if (charge.count > 0 && charge.tierAssumed) services.logger.warn({ requestId, model: model.id, quality: charge.quality, size: charge.size }, 'image tier not reported; billed at the dearest fitting tier');
    const costNanoUsd = charge.count === 0 ? 0n : charge.costNanoUsd;
    const entry = meterImageCall(services.ledger, { requestId, key: call.key, model, route: streamed.route, status: 200, images: charge.count, usage: result.usage, costNanoUsd, startedAt });
    call.limits.finish(entry);
  });
  return chunkStreamResponse(streamed.body, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': requestId, ...call.limits.headers(undefined) });
}
