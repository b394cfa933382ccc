import { GatewayError } from '../../errors/gateway-error.js';
import type { ContentUrlSigner } from '../../media/content-store/content-url-signer.js';
import type { VideoJobContentVariant, VideoJobRecord } from '../../media/videos/video-job-store.js';

/**
 * Keyless URLs for a job's content, handed to administrators in `GET /admin/videos`: a browser's
 * `<video>` and `<img>` cannot send an Authorization header, so the console plays videos and shows
 * thumbnails through these. The signature covers the job and the variant, so a thumbnail's URL
 * cannot fetch the video, and a URL without one still needs an admin key.
 */
const signedVariants: readonly VideoJobContentVariant[] = ['video', 'thumbnail'];

/** Expiries are rounded up to this step, so a page polled every second hands out the same URLs and the browser's cache holds. */
const expiryStepSeconds = 300;

function signedName(jobId: string, variant: string): string {
  return `admin video\n${jobId}\n${variant}`;
}

/** The signed content URLs of a completed job, by variant; null while it has none. */
export function adminVideoContentUrls(job: VideoJobRecord, signer: ContentUrlSigner, ttlSeconds: number, now: Date): Record<string, string> | null {
  if (job.status !== 'completed' || job.deletedAt !== null) return null;
  const expires = Math.ceil((now.getTime() / 1000 + ttlSeconds) / expiryStepSeconds) * expiryStepSeconds;
  const urls: Record<string, string> = {};
  for (const variant of signedVariants) {
    if (job.contents[variant] === undefined) continue;
    const query = new URLSearchParams({ variant, expires: String(expires), signature: signer.sign(signedName(job.id, variant), expires) });
    urls[variant] = `/admin/videos/${job.id}/content?${query.toString()}`;
  }
  return urls;
}

/** Throws 403 unless the URL's `signature` and `expires` were made here for this job and variant and are still in force. */
export function assertSignedAdminVideoUrl(signer: ContentUrlSigner, jobId: string, query: Readonly<Record<string, string>>, now: Date): void {
  const verdict = signer.verify(signedName(jobId, query.variant ?? 'video'), query.expires, query.signature, now);
  if (verdict === 'expired') throw new GatewayError('permission_denied', 'This video URL has expired.');
  if (verdict === 'forged') throw new GatewayError('permission_denied', 'This video URL is not valid: its signature does not match.');
}
