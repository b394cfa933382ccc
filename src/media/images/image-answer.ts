import type { ImageGenerationResult, ImageOutputFormat } from '../../ir/image-generation.js';
import { totalInputTokens, totalOutputTokens } from '../../ir/usage.js';
import type { ImageCharge } from './image-charge.js';
import type { ImageUrlPublisher } from './image-url-publisher.js';

const mediaTypes: Record<ImageOutputFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export interface ImageAnswerContext {
  readonly modelId: string;
  readonly responseFormat: 'url' | 'b64_json';
  readonly charge: ImageCharge;
  readonly publisher: ImageUrlPublisher;
  readonly baseUrl: string;
}

/**
 * The Images API answer: the images as asked (base64, or a gateway URL for bytes kept in the
 * content store), the size and quality actually produced, and the current model's id.
 */
export async function imageAnswer(result: ImageGenerationResult, context: ImageAnswerContext): Promise<Record<string, unknown>> {
  const outputFormat = result.outputFormat ?? 'png';
  const data = [];
  for (const image of result.images) {
    const revised = image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt };
    if (context.responseFormat === 'url') {
      // One image decoded at a time, so an answer of many large images holds one copy of each at most.
      const { url } = await context.publisher.publish(Buffer.from(image.base64, 'base64'), mediaTypes[outputFormat], context.baseUrl);
      data.push({ url, ...revised });
    } else {
      data.push({ b64_json: image.base64, ...revised });
    }
  }
  return {
    created: Math.floor(Date.now() / 1000),
    model: context.modelId,
    data,
    size: result.size ?? context.charge.size,
    quality: result.quality ?? context.charge.quality,
    output_format: outputFormat,
    ...(result.background === undefined ? {} : { background: result.background }),
    ...(result.usage === undefined
      ? {}
      : {
          usage: {
            input_tokens: totalInputTokens(result.usage),
            output_tokens: totalOutputTokens(result.usage),
            total_tokens: totalInputTokens(result.usage) + totalOutputTokens(result.usage),
          },
        }),
  };
}
