/** One second of pre-encoded H.264 at one frame size (see scripts/encode-sim-video-frames.mjs). */
export interface EncodedSecond {
  readonly width: number;
  readonly height: number;
  readonly framesPerSecond: number;
  /** The sequence and picture parameter sets, base64, without start codes. */
  readonly sps: string;
  readonly pps: string;
  /** Each picture's NAL unit with a 4-byte length prefix (the MP4 sample format), base64; the first is a keyframe. */
  readonly pictures: readonly { readonly key: boolean; readonly data: string }[];
}

/** Loaded on first use only: each size is tens of KB the simulator need not hold until asked. */
const loaders: Readonly<Record<string, () => Promise<{ encodedSecond: EncodedSecond }>>> = {
  '1280x720': () => import('./encoded/h264-1280x720.js'),
  '720x1280': () => import('./encoded/h264-720x1280.js'),
  '1920x1080': () => import('./encoded/h264-1920x1080.js'),
  '1080x1920': () => import('./encoded/h264-1080x1920.js'),
  '1792x1024': () => import('./encoded/h264-1792x1024.js'),
  '1024x1792': () => import('./encoded/h264-1024x1792.js'),
  // MiniMax Hailuo's 768P and 512P frames.
  '1366x768': () => import('./encoded/h264-1366x768.js'),
  '912x512': () => import('./encoded/h264-912x512.js'),
};

/** Runway's Gen-4 frames (its `ratio` names the pixel size), which the OpenAI-shaped endpoint does not offer. */
const runwayLoaders: Readonly<Record<string, () => Promise<{ encodedSecond: EncodedSecond }>>> = {
  '1104x832': () => import('./encoded/h264-1104x832.js'),
  '832x1104': () => import('./encoded/h264-832x1104.js'),
  '960x960': () => import('./encoded/h264-960x960.js'),
  '1584x672': () => import('./encoded/h264-1584x672.js'),
};

/** The sizes the OpenAI-shaped video endpoint makes. */
export const simVideoSizes: readonly string[] = Object.keys(loaders);

export async function encodedSecondFor(size: string): Promise<EncodedSecond | undefined> {
  const loader = Object.hasOwn(loaders, size) ? loaders[size] : Object.hasOwn(runwayLoaders, size) ? runwayLoaders[size] : undefined;
  return (await loader?.())?.encodedSecond;
}
