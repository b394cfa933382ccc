import { randomBytes } from 'node:crypto';

/** `video_` and 24 random bytes in hex: unguessable, since a job id is all a download needs besides the key. */
export function newVideoJobId(): string {
  return `video_${randomBytes(24).toString('hex')}`;
}
