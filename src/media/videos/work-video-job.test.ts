import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/config-schema.js';
import { nextPollDelayMs } from './work-video-job.js';
import type { VideoWorkContext } from './video-work-context.js';

const videos = configSchema.parse({ videos: { poll_interval_ms: 1000, max_poll_interval_ms: 10_000 } }).videos;
const context = { videos } as VideoWorkContext;

describe('nextPollDelayMs', () => {
  it('grows by half each poll up to the maximum', () => {
    expect([0, 1, 2, 3, 10].map((attempts) => nextPollDelayMs(context, attempts, undefined))).toEqual([1000, 1500, 2250, 3375, 10_000]);
  });

  it('follows the upstream hint, within the first interval and the maximum', () => {
    expect(nextPollDelayMs(context, 5, 4000)).toBe(4000);
    expect(nextPollDelayMs(context, 5, 200)).toBe(1000);
    expect(nextPollDelayMs(context, 0, 60_000)).toBe(10_000);
  });
});
