import { imageCharge } from '../../media/images/image-charge.js';
import type { ImageCallSettings } from '../../media/images/generate-images.js';
import { streamImages } from '../../media/images/stream-images.js';
import type { MeteredCall } from '../metered-call/metered-call-state.js';
import type { DecodedImageCall } from './decode-image-call.js';
import type { ImagesAnswer } from './images-endpoint.js';

/**
 * `stream: true`: the Images API events as `text/event-stream`. The cost is known only when the
 * stream is over, so it goes to the ledger then (no cost header): the images completed by then at
 * their tier, and nothing at all for a stream cut before its first completed image.
 */
export async function streamedImagesAnswer(call: MeteredCall, decoded: DecodedImageCall, editing: boolean, settings: ImageCallSettings): Promise<ImagesAnswer> {
  const { services, requestId } = call;
  const { model, price, tierAsked } = decoded;
  const streamed = await streamImages(model, decoded.neutral, editing, settings, requestId);
  services.metrics.trackStream('images', streamed.completion);
  const delivered = streamed.completion.then((result) => {
    const charge = imageCharge(price, result, tierAsked);
    if (charge.count > 0 && charge.tierAssumed) services.logger.warn({ requestId, model: model.id, quality: charge.quality, size: charge.size }, 'image tier not reported; billed at the dearest fitting tier');
    return { route: streamed.route, images: charge.count, usage: result.usage, costNanoUsd: charge.count === 0 ? 0n : charge.costNanoUsd };
  });
  return { contentType: 'text/event-stream; charset=utf-8', body: streamed.body, delivered };
}
