/** What Runway's API takes for each model the simulator plays: ratios per endpoint and lengths. */
interface SimRunwayModel {
  readonly ratios: Partial<Record<'text_to_video' | 'image_to_video', readonly string[]>>;
  readonly durations: readonly number[];
  /** The length made when the submit names none (`undefined`: the model needs one). */
  readonly defaultDuration: number | undefined;
  readonly creditsPerSecond: number;
}

const gen4Ratios = ['1280:720', '720:1280', '1104:832', '960:960', '832:1104', '1584:672'];
const veoRatios = ['1280:720', '720:1280', '1080:1920', '1920:1080'];
const twoToTen = [2, 3, 4, 5, 6, 7, 8, 9, 10];

export const simRunwayModels: Readonly<Record<string, SimRunwayModel>> = {
  'gen4.5': { ratios: { text_to_video: ['1280:720', '720:1280'], image_to_video: gen4Ratios }, durations: twoToTen, defaultDuration: undefined, creditsPerSecond: 12 },
  gen4_turbo: { ratios: { image_to_video: gen4Ratios }, durations: twoToTen, defaultDuration: 10, creditsPerSecond: 5 },
  'veo3.1': { ratios: { text_to_video: veoRatios, image_to_video: veoRatios }, durations: [4, 6, 8], defaultDuration: 8, creditsPerSecond: 40 },
  'veo3.1_fast': { ratios: { text_to_video: veoRatios, image_to_video: veoRatios }, durations: [4, 6, 8], defaultDuration: 8, creditsPerSecond: 15 },
};

export type SimRunwayEndpoint = 'text_to_video' | 'image_to_video';

/** The model's rule for an endpoint it serves, or undefined. */
export function simRunwayModel(model: unknown, endpoint: SimRunwayEndpoint): SimRunwayModel | undefined {
  if (typeof model !== 'string' || !Object.hasOwn(simRunwayModels, model)) return undefined;
  const rule = simRunwayModels[model];
  return rule?.ratios[endpoint] === undefined ? undefined : rule;
}
