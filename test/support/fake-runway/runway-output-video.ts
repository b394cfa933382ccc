import { encodedSecondFor } from '../../../src/sim/videos/encoded-second.js';
import { muxMp4 } from '../../../src/sim/videos/mux-mp4.js';

const made = new Map<string, Promise<Buffer>>();

/**
 * A real H.264 MP4 at the task's ratio (Runway's ratio is the output's pixel size) and length,
 * muxed from the simulator's pre-encoded seconds, so ffprobe reads what a Runway output would hold.
 */
export function runwayOutputVideo(ratio: string, seconds: number): Promise<Buffer> {
  const size = ratio.replace(':', 'x');
  const key = `${size}/${seconds}`;
  let video = made.get(key);
  if (video === undefined) {
    video = encodedSecondFor(size).then((encoded) => {
      if (encoded === undefined) throw new RangeError(`no encoded frames at ${size}`);
      return muxMp4(encoded, seconds);
    });
    made.set(key, video);
  }
  return video;
}
