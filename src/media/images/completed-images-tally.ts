import { toGatewayError, type GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationResult, ImageStreamEvent } from '../../ir/image-generation.js';
import type { Usage } from '../../ir/usage.js';
import type { ImageStreamDecoder } from '../../providers/provider-adapter.js';

/** What a relayed image stream's `completed` events said, read on the way past. */
export interface CompletedImagesTally {
  observe(eventName: string | undefined, data: string): void;
  /**
   * The images completed so far, as a result to bill: one entry per `completed` event (its bytes
   * went to the client and are not kept), the first reported size, quality, format and
   * background, and the usage of all of them added up.
   */
  result(): ImageGenerationResult;
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

export function createCompletedImagesTally(decoder: ImageStreamDecoder): CompletedImagesTally {
  let count = 0;
  let reported: Omit<ImageGenerationResult, 'images' | 'usage'> = {};
  let usage: Usage | undefined;
  let upstreamFailed = false;
  const take = (events: readonly ImageStreamEvent[]): void => {
    for (const event of events) {
      if (event.type === 'error') upstreamFailed = true;
      if (event.type !== 'image-completed') continue;
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
    result() {
      const images = Array.from({ length: count }, () => ({ base64: '' }));
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
