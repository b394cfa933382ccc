import type { SimStreamEvent } from '../sim-endpoint.js';
import { drawPicture } from './draw-picture.js';
import type { OpenAiImageOptions } from './openai-image-options.js';
import type { OpenAiImageUsage } from './openai-image-usage.js';
import { imageUsage, outputTokensPerImage } from './openai-image-usage.js';

/** What an accepted Images API request produces: every `auto` already made concrete. */
export interface ImageAnswerPlan {
  readonly kind: 'generation' | 'edit';
  readonly options: OpenAiImageOptions;
  readonly createdAt: number;
  readonly textTokens: number;
  readonly imageTokens: number;
  readonly inputs: readonly Buffer[];
  readonly mask: Buffer | undefined;
}

function dimensions(size: string): { width: number; height: number } {
  const [width, height] = size.split('x').map(Number);
  return { width: width ?? 1024, height: height ?? 1024 };
}

async function drawBase64(plan: ImageAnswerPlan, index: number, detail: number): Promise<string> {
  const { options } = plan;
  const picture = await drawPicture({
    prompt: options.prompt,
    index,
    ...dimensions(options.size),
    format: options.format,
    transparent: options.background === 'transparent',
    compression: options.compression,
    detail,
    inputs: plan.inputs,
    mask: plan.mask,
  });
  return picture.toString('base64');
}

function perImageOutputTokens(plan: ImageAnswerPlan): number {
  const { width, height } = dimensions(plan.options.size);
  return outputTokensPerImage(plan.options.quality, width, height);
}

function settings(plan: ImageAnswerPlan): Record<string, string> {
  const { options } = plan;
  return { background: options.background, output_format: options.format, quality: options.quality, size: options.size };
}

/** The `ImagesResponse` body, in the field order the API sends. */
export async function imagesResponse(plan: ImageAnswerPlan): Promise<unknown> {
  const indexes = Array.from({ length: plan.options.count }, (_, index) => index);
  // One at a time: each encode already uses sharp's worker threads, and the machine may be shared.
  const data: Array<{ b64_json: string }> = [];
  for (const index of indexes) data.push({ b64_json: await drawBase64(plan, index, 1) });
  const { background, output_format, quality, size } = settings(plan);
  const usage = imageUsage(plan.textTokens, plan.imageTokens, perImageOutputTokens(plan) * plan.options.count);
  return { created: plan.createdAt, background, data, output_format, quality, size, usage };
}

/**
 * Per image: `partial_images` partial events showing the picture growing, then one completed event.
 * Input tokens are reported on the first completed event only, so the events' usage adds up to
 * what the same request reports without streaming.
 */
export async function imageEvents(plan: ImageAnswerPlan): Promise<SimStreamEvent[]> {
  const prefix = plan.kind === 'edit' ? 'image_edit' : 'image_generation';
  const events: SimStreamEvent[] = [];
  const partials = plan.options.partialImages;
  for (let index = 0; index < plan.options.count; index += 1) {
    for (let partial = 0; partial < partials; partial += 1) {
      const type = `${prefix}.partial_image`;
      const b64 = await drawBase64(plan, index, (partial + 1) / (partials + 1));
      events.push({
        event: type,
        data: { type, b64_json: b64, created_at: plan.createdAt, ...settings(plan), partial_image_index: partial },
      });
    }
    const type = `${prefix}.completed`;
    const usage: OpenAiImageUsage = imageUsage(
      index === 0 ? plan.textTokens : 0,
      index === 0 ? plan.imageTokens : 0,
      perImageOutputTokens(plan),
    );
    const b64 = await drawBase64(plan, index, 1);
    events.push({ event: type, data: { type, b64_json: b64, created_at: plan.createdAt, ...settings(plan), usage } });
  }
  return events;
}
