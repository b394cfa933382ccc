import { describe, expect, it } from 'vitest';
import { ffprobe } from '../../../test/support/ffprobe.js';
import { encodedSecondFor } from './encoded-second.js';
import { muxMp4 } from './mux-mp4.js';

describe('muxMp4', () => {
  it.each([
    ['1280x720', 4],
    ['720x1280', 8],
    ['1920x1080', 1],
  ])('makes an H.264 MP4 at %s lasting %i s that ffprobe reads', async (size, seconds) => {
    const encoded = await encodedSecondFor(size);
    const probed = await ffprobe(await muxMp4(encoded!, seconds));
    expect(probed.codec).toBe('h264');
    expect(`${probed.width}x${probed.height}`).toBe(size);
    expect(Math.abs(probed.durationSeconds - seconds)).toBeLessThan(0.1);
  });
});
