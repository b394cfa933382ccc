import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { ContentUrlSigner } from '../../media/content-store/content-url-signer.js';
import type { VideoJobRecord } from '../../media/videos/video-job-store.js';
import { adminVideoContentUrls, assertSignedAdminVideoUrl } from './admin-video-urls.js';

const signer = new ContentUrlSigner('a test secret');
const now = new Date('2026-11-26T07:00:10Z');
const jobId = `video_${'a'.repeat(48)}`;

/** Only the fields the URLs read; the rest of a job does not matter to them. */
function job(fields: Partial<VideoJobRecord>): VideoJobRecord {
  return { id: jobId, status: 'completed', deletedAt: null, contents: { video: 'k/v.mp4', thumbnail: 'k/t.webp', spritesheet: 'k/s.jpg' }, ...fields } as VideoJobRecord;
}

function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://gateway').searchParams);
}

function refusal(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof GatewayError ? `${error.code}: ${error.message}` : String(error);
  }
}

describe('signed admin video URLs', () => {
  it('sign the video and the thumbnail of a completed job, not the spritesheet, with an expiry rounded up to 5 minutes', () => {
    const urls = adminVideoContentUrls(job({}), signer, 3600, now) ?? {};
    expect(Object.keys(urls)).toEqual(['video', 'thumbnail']);
    const query = queryOf(urls.video ?? '');
    expect(query.variant).toBe('video');
    const expires = Number(query.expires);
    expect(expires % 300).toBe(0);
    expect(expires).toBeGreaterThanOrEqual(now.getTime() / 1000 + 3600);
    expect(expires).toBeLessThan(now.getTime() / 1000 + 3600 + 300);
    // A page polled a minute later hands out the same URL, so the browser's cache holds.
    expect(adminVideoContentUrls(job({}), signer, 3600, new Date(now.getTime() + 60_000))).toEqual(urls);
  });

  it('give none for a job still running, failed or deleted', () => {
    expect(adminVideoContentUrls(job({ status: 'in_progress' }), signer, 3600, now)).toBeNull();
    expect(adminVideoContentUrls(job({ status: 'failed' }), signer, 3600, now)).toBeNull();
    expect(adminVideoContentUrls(job({ deletedAt: now }), signer, 3600, now)).toBeNull();
  });

  it('verify for their own job and variant until they expire, and refuse anything changed', () => {
    const urls = adminVideoContentUrls(job({}), signer, 3600, now) ?? {};
    const video = queryOf(urls.video ?? '');
    expect(refusal(() => assertSignedAdminVideoUrl(signer, jobId, video, now))).toBeUndefined();
    expect(refusal(() => assertSignedAdminVideoUrl(signer, jobId, { ...video, variant: 'spritesheet' }, now))).toContain('permission_denied');
    expect(refusal(() => assertSignedAdminVideoUrl(signer, `video_${'b'.repeat(48)}`, video, now))).toContain('signature does not match');
    expect(refusal(() => assertSignedAdminVideoUrl(signer, jobId, { ...video, expires: String(Number(video.expires) + 300) }, now))).toContain('signature does not match');
    expect(refusal(() => assertSignedAdminVideoUrl(new ContentUrlSigner('another secret'), jobId, video, now))).toContain('signature does not match');
    const later = new Date(Number(video.expires) * 1000);
    expect(refusal(() => assertSignedAdminVideoUrl(signer, jobId, video, later))).toContain('has expired');
  });

  it('are not the image URLs’ signatures: an image signature over the same id does not open a video', () => {
    const expires = Math.floor(now.getTime() / 1000) + 600;
    const imageSignature = signer.sign(jobId, expires);
    expect(refusal(() => assertSignedAdminVideoUrl(signer, jobId, { variant: 'video', expires: String(expires), signature: imageSignature }, now))).toContain('signature does not match');
  });
});
