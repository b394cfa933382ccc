/**
 * What Runway's API takes for each model the fake serves, as `@runwayml/sdk` 4.20.1 types it
 * (generated from Runway's OpenAPI spec: src/resources/text-to-video.ts, image-to-video.ts).
 * The fake refuses anything else with a 400, as Runway does, so a gateway that sends a ratio or
 * length a model does not take fails its test here rather than in production.
 */
export interface RunwayModelRule {
  /** `ratio` values per endpoint; an endpoint the model lacks is absent. */
  readonly ratios: Partial<Record<'text_to_video' | 'image_to_video', readonly string[]>>;
  /** Accepted `duration` values; `required` when the model has no default. */
  readonly durations: { readonly values: readonly number[]; readonly required: boolean };
  /** Credits per second, for the task's `estimatedCost` and `cost`. */
  readonly creditsPerSecond: number;
  /** The length made when `duration` is left out. */
  readonly defaultDuration: number;
}

const gen4Ratios = ['1280:720', '720:1280', '1104:832', '960:960', '832:1104', '1584:672'];
const veoRatios = ['1280:720', '720:1280', '1080:1920', '1920:1080'];
const twoToTen = [2, 3, 4, 5, 6, 7, 8, 9, 10];

export const runwayModelRules: Readonly<Record<string, RunwayModelRule>> = {
  'gen4.5': { ratios: { text_to_video: ['1280:720', '720:1280'], image_to_video: gen4Ratios }, durations: { values: twoToTen, required: true }, creditsPerSecond: 12, defaultDuration: 5 },
  gen4_turbo: { ratios: { image_to_video: gen4Ratios }, durations: { values: twoToTen, required: false }, creditsPerSecond: 5, defaultDuration: 10 },
  'veo3.1': { ratios: { text_to_video: veoRatios, image_to_video: veoRatios }, durations: { values: [4, 6, 8], required: false }, creditsPerSecond: 40, defaultDuration: 8 },
  'veo3.1_fast': { ratios: { text_to_video: veoRatios, image_to_video: veoRatios }, durations: { values: [4, 6, 8], required: false }, creditsPerSecond: 15, defaultDuration: 8 },
};

/** "The length of the encoded data URI must be under 5MB (1024 × 1024 × 5 bytes)" (docs.dev.runwayml.com/assets/inputs). */
export const dataUriLimit = 5 * 1024 * 1024;

/** Why Runway would refuse this submit body, or undefined when it takes it. */
export function refusalOf(endpoint: 'text_to_video' | 'image_to_video', body: Record<string, unknown>): string | undefined {
  const model = typeof body['model'] === 'string' ? body['model'] : '';
  const rule = Object.hasOwn(runwayModelRules, model) ? runwayModelRules[model] : undefined;
  const ratios = rule?.ratios[endpoint];
  if (rule === undefined || ratios === undefined) return `Invalid model: ${endpoint} does not take model '${model}'.`;
  if (typeof body['ratio'] !== 'string' || !ratios.includes(body['ratio'])) return `Invalid ratio for ${model}: expected one of ${ratios.join(', ')}.`;
  const duration = body['duration'];
  if (duration === undefined ? rule.durations.required : typeof duration !== 'number' || !rule.durations.values.includes(duration)) {
    return `Invalid duration for ${model}: expected one of ${rule.durations.values.join(', ')}.`;
  }
  const prompt = body['promptText'];
  if (endpoint === 'text_to_video' && (typeof prompt !== 'string' || prompt.length === 0)) return 'promptText: a non-empty string is required.';
  if (prompt !== undefined && (typeof prompt !== 'string' || prompt.length > 1000)) return 'promptText: a string of at most 1000 characters.';
  if (endpoint === 'image_to_video') return promptImageRefusal(body['promptImage']);
  if (body['promptImage'] !== undefined) return 'promptImage: text_to_video takes no image.';
  return undefined;
}

/** An https URL, or a data URI under the limit with an image media type. */
function promptImageRefusal(image: unknown): string | undefined {
  if (typeof image !== 'string') return 'promptImage: required.';
  if (image.startsWith('https://')) return undefined;
  if (!image.startsWith('data:')) return 'promptImage: Only HTTPS URLs are allowed.';
  if (image.length >= dataUriLimit) return 'promptImage: The data URI is too large.';
  if (!/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/.test(image)) return 'promptImage: Invalid data URI.';
  return undefined;
}
