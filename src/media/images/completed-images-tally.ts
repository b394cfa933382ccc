import { toGatewayError, type GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationResult, ImageStreamEvent } from '../../ir/image-generation.js';
import type { Usage } from '../../ir/usage.js';
import type { ImageStreamDecoder } from '../../providers/provider-adapter.js';

/** What a relayed image stream's `completed` events said, read on the way past. */
export interface CompletedImagesTally {
  observe(eventName: string | undefined, data: string): void;
  /**
   * The images to bill: one per `completed` event (its bytes went to the client and are not
   * kept), and one more for each image a partial of which went to a client that then left before
   * its completion came (a partial image is that picture, billed at its tier); the first reported size, quality,
   * format and background, and the usage of all of them added up.
   */
  result(): ImageGenerationResult;
  /** The client has gone: partial images read from now on were never delivered. */
  clientLeft(): void;
  /** A partial image went to the client and that image's `completed` event has not come yet. */
  awaitingCompletion(): boolean;
  /**
   * The upstream stream is over (`cut` when its connection broke): the error to end the client's
   * stream with, or undefined when it ended well or already carried its own `error` event.
   */
  finish(cut: GatewayError | undefined): GatewayError | undefined;
}

function addUsage(total: Usage | undefined, more: Usage | undefined): Usage | undefined {
  if (more === undefined) return total;
  if (total === undefined) return more;
  return {
    inputUncached: total.inputUncached + more.inputUncached,
    cacheRead: total.cacheRead + more.cacheRead,
    cacheWrite: total.cacheWrite + more.cacheWrite,
    output: total.output + more.output,
    reasoning: total.reasoning + more.reasoning,
  };
}

/** An image a partial of which was read, whose `completed` event has not come yet. */
interface ImageUnderWay {
  /** The `partial_image_index` of its latest partial. */
  lastPartial: number;
  /** A partial of it reached the client. */
  delivered: boolean;
}

/**
 * The images under way in a stream of several (`n` > 1), whose events may interleave and name no
 * image: a partial continues the image whose previous partial it follows, else begins another,
 * and a `completed` event ends the image furthest along.
 */
function createImagesUnderWay(): { partial(index: number, delivered: boolean): void; completed(): void; deliveredCount(): number } {
  const images: ImageUnderWay[] = [];
  return {
    partial(index, delivered) {
      const image = images.find((candidate) => candidate.lastPartial === index - 1);
      if (image === undefined) images.push({ lastPartial: index, delivered });
      else {
        image.lastPartial = index;
        image.delivered ||= delivered;
      }
    },
    completed() {
      if (images.length === 0) return;
      const furthest = images.reduce((best, image) => (image.lastPartial > best.lastPartial ? image : best));
      images.splice(images.indexOf(furthest), 1);
    },
    deliveredCount: () => images.filter((image) => image.delivered).length,
  };
}

export function createCompletedImagesTally(decoder: ImageStreamDecoder): CompletedImagesTally {
  let count = 0;
  let reported: Omit<ImageGenerationResult, 'images' | 'usage'> = {};
  let usage: Usage | undefined;
  let upstreamFailed = false;
  const underWay = createImagesUnderWay();
  let delivering = true;
  const take = (events: readonly ImageStreamEvent[]): void => {
    for (const event of events) {
      if (event.type === 'error') upstreamFailed = true;
      if (event.type === 'partial-image') underWay.partial(event.partialIndex, delivering);
      if (event.type !== 'image-completed') continue;
      underWay.completed();
      const { images: _bytes, usage: eventUsage, ...fields } = event.result;
      if (count === 0) reported = fields;
      count += 1;
      usage = addUsage(usage, eventUsage);
    }
  };
  return {
    observe(eventName, data) {
      take(decoder.push(eventName, data));
    },
    clientLeft() {
      delivering = false;
    },
    awaitingCompletion: () => underWay.deliveredCount() > 0,
    result() {
      // Only a client that left is charged for partials: an upstream that broke off completed nothing.
      const images = Array.from({ length: count + (delivering ? 0 : underWay.deliveredCount()) }, () => ({ base64: '' }));
      return { images, ...reported, ...(usage === undefined ? {} : { usage }) };
    },
    finish(cut) {
      const closing = decoder.end();
      const alreadyFailed = upstreamFailed;
      take(closing);
      if (alreadyFailed) return undefined;
      if (cut !== undefined) return cut;
      const error = closing.find((event) => event.type === 'error');
      return error?.type === 'error' ? toGatewayError(error.error) : undefined;
    },
  };
}
