import type { ImageQuality } from './openai-image-options.js';

/** Token figures of the gpt-image family: output by the published quality × size table. */

export interface OpenAiImageUsage {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly image_tokens: number; readonly text_tokens: number };
  readonly output_tokens: number;
  readonly total_tokens: number;
}

/** Output tokens per image, as OpenAI publishes them for gpt-image-1 (high 1024x1024 = 4160). */
const outputTable: Record<ImageQuality, Record<string, number>> = {
  low: { '1024x1024': 272, '1024x1536': 408, '1536x1024': 400 },
  medium: { '1024x1024': 1056, '1024x1536': 1584, '1536x1024': 1568 },
  high: { '1024x1024': 4160, '1024x1536': 6240, '1536x1024': 6208 },
};

export function outputTokensPerImage(quality: ImageQuality, width: number, height: number): number {
  const listed = outputTable[quality][`${width}x${height}`];
  if (listed !== undefined) return listed;
  // Sizes off the table (gpt-image-2) scale with their area from the square figure.
  const square = outputTable[quality]['1024x1024'] ?? 0;
  return Math.round((square * width * height) / (1024 * 1024));
}

/** Text tokens as the rest of the simulator counts them: a quarter of the characters, at least 1. */
export function promptTokens(prompt: string): number {
  return Math.max(1, Math.ceil(prompt.length / 4));
}

/**
 * An input picture costs what a vision input does: fitted within 2048 and its short side to 768,
 * then 85 plus 170 per 512-pixel tile.
 */
export function inputImageTokens(width: number, height: number): number {
  const fit = Math.min(1, 2048 / Math.max(width, height));
  const shortSide = Math.min(width, height) * fit;
  const scale = fit * (shortSide > 768 ? 768 / shortSide : 1);
  const tiles = Math.ceil((width * scale) / 512) * Math.ceil((height * scale) / 512);
  return 85 + 170 * tiles;
}

export function imageUsage(textTokens: number, imageTokens: number, outputTokens: number): OpenAiImageUsage {
  const input = textTokens + imageTokens;
  return {
    input_tokens: input,
    input_tokens_details: { image_tokens: imageTokens, text_tokens: textTokens },
    output_tokens: outputTokens,
    total_tokens: input + outputTokens,
  };
}
