import { loadSharp } from '../images/load-sharp.js';
import { encodedSecondFor } from './encoded-second.js';
import { muxMp4 } from './mux-mp4.js';
import type { SimVideoJob } from './sim-video-job.js';

/** The finished video: a real H.264 MP4 of the job's size and length. */
export async function jobVideo(job: SimVideoJob): Promise<Buffer> {
  const encoded = await encodedSecondFor(job.size);
  if (encoded === undefined) throw new RangeError(`no frames for ${job.size}`);
  return muxMp4(encoded, job.seconds);
}

/** A WebP thumbnail a quarter of the video's size, in a colour drawn from the prompt. */
export async function jobThumbnail(job: SimVideoJob): Promise<Buffer> {
  const [width, height] = job.size.split('x').map(Number) as [number, number];
  let hash = 0;
  for (const character of job.prompt) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  const sharp = await loadSharp();
  const background = { r: hash & 0xff, g: (hash >> 8) & 0xff, b: (hash >> 16) & 0xff };
  return sharp({ create: { width: Math.max(1, Math.round(width / 4)), height: Math.max(1, Math.round(height / 4)), channels: 3, background } }).webp().toBuffer();
}
