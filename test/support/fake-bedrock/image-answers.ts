import sharp from 'sharp';

/**
 * What the fake Bedrock checks of, and answers to, an image model's InvokeModel body: Nova Canvas's
 * (Amazon Nova user guide, "Request and response structure for image generation") and Stability's
 * (Bedrock user guide, "Stable Image Ultra request and response"). Pictures are real, of the size
 * the body asks for, each a colour of its own, so a test can decode them.
 */
export type ImageModelFamily = 'nova-canvas' | 'stability';

export function imageModelFamily(modelId: string): ImageModelFamily | undefined {
  if (/(^|[./])amazon\.nova-canvas-/.test(modelId)) return 'nova-canvas';
  if (/(^|[./])stability\./.test(modelId)) return 'stability';
  return undefined;
}

/** Stability's aspect ratios and the picture each makes. */
export const stabilitySizes: Readonly<Record<string, { width: number; height: number }>> = {
  '1:1': { width: 1024, height: 1024 },
  '16:9': { width: 1344, height: 768 },
  '9:16': { width: 768, height: 1344 },
  '21:9': { width: 1536, height: 640 },
  '9:21': { width: 640, height: 1536 },
  '3:2': { width: 1216, height: 832 },
  '2:3': { width: 832, height: 1216 },
  '5:4': { width: 1088, height: 896 },
  '4:5': { width: 896, height: 1088 },
};

const validation = (message: string): string => `1 validation error detected: ${message}`;

/** Nova Canvas's checks of a text-to-image body; a string is the ValidationException's message. */
export function checkNovaCanvasBody(body: Record<string, unknown>): string | undefined {
  if (body.taskType !== 'TEXT_IMAGE') return 'Malformed input request: taskType must be one of TEXT_IMAGE, COLOR_GUIDED_GENERATION, IMAGE_VARIATION, INPAINTING, OUTPAINTING, BACKGROUND_REMOVAL.';
  const params = body.textToImageParams as Record<string, unknown> | undefined;
  const text = params?.text;
  if (typeof text !== 'string' || text.length < 1 || text.length > 1024) return validation('textToImageParams.text must be between 1 and 1024 characters.');
  const config = (body.imageGenerationConfig ?? {}) as Record<string, unknown>;
  const width = config.width ?? 1024;
  const height = config.height ?? 1024;
  const count = config.numberOfImages ?? 1;
  if (typeof width !== 'number' || typeof height !== 'number') return validation('width and height must be integers.');
  if (width < 320 || width > 4096 || height < 320 || height > 4096) return validation('width and height must be between 320 and 4096.');
  if (width % 16 !== 0 || height % 16 !== 0) return validation('width and height must be divisible by 16.');
  if (width * height > 4_194_304) return validation('The total pixel count must be no more than 4194304.');
  if (width / height > 4 || height / width > 4) return validation('The aspect ratio must be between 1:4 and 4:1.');
  if (typeof count !== 'number' || count < 1 || count > 5) return validation('numberOfImages must be between 1 and 5.');
  if (config.quality !== undefined && config.quality !== 'standard' && config.quality !== 'premium') return validation('quality must be standard or premium.');
  return undefined;
}

const stabilityKeys = new Set(['prompt', 'aspect_ratio', 'output_format', 'seed', 'negative_prompt', 'mode', 'image', 'strength']);

/** A Stability model's checks: the prompt, an aspect ratio and format it knows, no other member. */
export function checkStabilityBody(body: Record<string, unknown>): string | undefined {
  const extraneous = Object.keys(body).find((key) => !stabilityKeys.has(key));
  if (extraneous !== undefined) return `Malformed input request: #: extraneous key [${extraneous}] is not permitted, please reformat your input and try again.`;
  if (typeof body.prompt !== 'string' || body.prompt.length > 10_000) return 'Malformed input request: #/prompt: expected a string of at most 10000 characters.';
  if (body.aspect_ratio !== undefined && !Object.hasOwn(stabilitySizes, String(body.aspect_ratio))) return `Malformed input request: #/aspect_ratio: ${String(body.aspect_ratio)} is not a valid enum value.`;
  if (body.output_format !== undefined && !['png', 'jpeg', 'webp'].includes(String(body.output_format))) return `Malformed input request: #/output_format: ${String(body.output_format)} is not a valid enum value.`;
  return undefined;
}

let pictureCount = 0;

/** A picture of that size in that format, base64, a new colour each time. */
export async function drawPicture(width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<string> {
  const index = pictureCount++;
  const background = { r: (70 * index + 30) % 256, g: (110 * index + 90) % 256, b: (40 * index + 160) % 256 };
  const canvas = sharp({ create: { width, height, channels: 3, background } });
  const encoded = format === 'jpeg' ? canvas.jpeg({ quality: 50 }) : format === 'webp' ? canvas.webp({ quality: 50 }) : canvas.png({ compressionLevel: 9 });
  return (await encoded.toBuffer()).toString('base64');
}

/** Nova Canvas's answer: `numberOfImages` PNGs at the width and height asked. */
export async function novaCanvasAnswer(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const config = (body.imageGenerationConfig ?? {}) as { width?: number; height?: number; numberOfImages?: number };
  const images: string[] = [];
  for (let index = 0; index < (config.numberOfImages ?? 1); index++) images.push(await drawPicture(config.width ?? 1024, config.height ?? 1024));
  return { images };
}

/** A Stability model's answer: one picture at the aspect ratio's size, in the format asked. */
export async function stabilityAnswer(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { width, height } = stabilitySizes[String(body.aspect_ratio ?? '1:1')] ?? { width: 1024, height: 1024 };
  const format = (body.output_format ?? 'png') as 'png' | 'jpeg' | 'webp';
  return { seeds: [2130420379], finish_reasons: [null], images: [await drawPicture(width, height, format)] };
}
