import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and checks keyless content URLs: an HMAC-SHA256 over the content id and the expiry, so
 * neither can be changed without the secret. The label keeps these signatures apart from any
 * other use the same secret might be put to.
 */
const purpose = 'switchyard content url v1';

/** Unix seconds as the query parameter carries them; anything else is not a URL we made. */
const unixSecondsPattern = /^\d{1,12}$/;

export type ContentUrlVerdict = 'valid' | 'forged' | 'expired';

export class ContentUrlSigner {
  constructor(private readonly secret: string) {}

  /** The base64url signature of `contentId` expiring at `expiresAt` (unix seconds). */
  sign(contentId: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${purpose}\n${contentId}\n${expiresAt}`).digest('base64url');
  }

  /**
   * Whether a URL's parts were signed here and are still in force at `now`. The signature is
   * checked before the expiry, and in constant time, so a forger learns nothing from either.
   */
  verify(contentId: string, expires: string | undefined, signature: string | undefined, now: Date): ContentUrlVerdict {
    if (expires === undefined || signature === undefined || !unixSecondsPattern.test(expires)) return 'forged';
    const expected = Buffer.from(this.sign(contentId, Number(expires)));
    // Compared as text, not decoded: Node's base64url decoder skips stray characters, so two
    // different strings could decode to the same bytes.
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
    return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
  }
}
