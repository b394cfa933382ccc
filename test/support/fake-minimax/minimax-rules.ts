/**
 * What MiniMax's video API accepts, as its reference documents it, for the fake to refuse what
 * MiniMax refuses (https://platform.minimax.io/docs/api-reference/video-generation and its
 * mirrors: Hailuo-02 and 2.3 make 6 or 10 seconds at 768P and 6 at 1080P, Hailuo-02 also 512P
 * from a first frame; the 01 models 720P, 6 seconds; 2.3-Fast and the I2V models need a first
 * frame). Written out here, not taken from the gateway, so the two cannot agree by accident.
 */
interface ModelRules {
  readonly needsFirstFrame: boolean;
  /** Resolution → lengths, for text-to-video and image-to-video. */
  readonly textToVideo: Readonly<Record<string, readonly number[]>>;
  readonly imageToVideo: Readonly<Record<string, readonly number[]>>;
}

const hailuo = { '768P': [6, 10], '1080P': [6] };
const first = { '720P': [6] };

const models: Readonly<Record<string, ModelRules>> = {
  'MiniMax-Hailuo-2.3': { needsFirstFrame: false, textToVideo: hailuo, imageToVideo: hailuo },
  'MiniMax-Hailuo-2.3-Fast': { needsFirstFrame: true, textToVideo: {}, imageToVideo: hailuo },
  'MiniMax-Hailuo-02': { needsFirstFrame: false, textToVideo: hailuo, imageToVideo: { '512P': [6, 10], ...hailuo } },
  'T2V-01': { needsFirstFrame: false, textToVideo: first, imageToVideo: {} },
  'I2V-01': { needsFirstFrame: true, textToVideo: {}, imageToVideo: first },
};

/** The default resolution MiniMax documents per model family. */
function defaultResolution(model: string): string {
  return model.includes('01') && !model.includes('Hailuo') ? '720P' : '768P';
}

export interface AcceptedSubmit {
  readonly model: string;
  readonly prompt: string;
  readonly duration: number;
  readonly resolution: string;
  readonly firstFrameImage: string | undefined;
}

/** A submit body as MiniMax reads it, or the `invalid params` message it answers (code 2013). */
export function readSubmit(body: unknown): AcceptedSubmit | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'invalid params, request body is not a JSON object';
  const fields = body as Record<string, unknown>;
  const model = fields.model;
  if (typeof model !== 'string' || !Object.hasOwn(models, model)) return `invalid params, model ${String(model)} is not supported`;
  const rules = models[model] as ModelRules;
  const firstFrameImage = fields.first_frame_image;
  if (firstFrameImage !== undefined && (typeof firstFrameImage !== 'string' || !/^(https?:\/\/|data:image\/(jpeg|jpg|png|webp);base64,)/.test(firstFrameImage))) {
    return 'invalid params, first_frame_image must be a public URL or a base64 data URL of a JPG, PNG or WebP image';
  }
  if (rules.needsFirstFrame && firstFrameImage === undefined) return `invalid params, ${model} needs first_frame_image`;
  const prompt = fields.prompt ?? '';
  if (typeof prompt !== 'string' || [...prompt].length > 2000) return 'invalid params, prompt must be a string of at most 2000 characters';
  if (prompt === '' && firstFrameImage === undefined) return 'invalid params, prompt is required';
  const duration = fields.duration ?? 6;
  if (duration !== 6 && duration !== 10) return 'invalid params, duration must be 6 or 10';
  const resolution = fields.resolution ?? defaultResolution(model);
  const table = firstFrameImage === undefined ? rules.textToVideo : rules.imageToVideo;
  const lengths = typeof resolution === 'string' && Object.hasOwn(table, resolution) ? table[resolution] : undefined;
  if (lengths === undefined) return `invalid params, ${model} does not support resolution ${String(resolution)}`;
  if (!lengths.includes(duration)) return `invalid params, ${model} makes ${String(resolution)} videos of ${lengths.join(' or ')} seconds`;
  return { model, prompt, duration, resolution: resolution as string, firstFrameImage: firstFrameImage as string | undefined };
}

/** The frame MiniMax renders each resolution at (text-to-video: 16:9). */
export const frameSizes: Readonly<Record<string, string>> = { '512P': '912x512', '720P': '1280x720', '768P': '1366x768', '1080P': '1920x1080' };
