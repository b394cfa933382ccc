import { describe, expect, it } from 'vitest';
import { ContentUrlSigner } from './content-url-signer.js';

const secret = 'a-test-secret-of-at-least-thirty-two-characters';
const signer = new ContentUrlSigner(secret);
const id = 'img_AAAAAAAAAAAAAAAAAAAAAAAA.png';
const expires = 1_900_000_000;
const before = new Date((expires - 1) * 1000);

describe('content URL signatures', () => {
  it('signs with a base64url HMAC-SHA256 and accepts its own signature until the expiry', () => {
    const signature = signer.sign(id, expires);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signer.sign(id, expires)).toBe(signature);
    expect(signer.verify(id, String(expires), signature, before)).toBe('valid');
  });

  it('refuses a signature for another id', () => {
    const signature = signer.sign(id, expires);
    expect(signer.verify('img_AAAAAAAAAAAAAAAAAAAAAAAB.png', String(expires), signature, before)).toBe('forged');
    expect(signer.verify('img_AAAAAAAAAAAAAAAAAAAAAAAA.jpeg', String(expires), signature, before)).toBe('forged');
  });

  it('refuses a pushed-back expiry, even one far in the future', () => {
    const signature = signer.sign(id, expires);
    expect(signer.verify(id, String(expires + 1), signature, before)).toBe('forged');
    expect(signer.verify(id, '99999999999', signature, before)).toBe('forged');
  });

  it('refuses expiries that are not plain unix seconds', () => {
    for (const written of ['1.9e9', ' 1900000000', '1900000000.0', '-1', '', 'soon']) {
      expect(signer.verify(id, written, signer.sign(id, Number(written)), before), written).toBe('forged');
    }
  });

  it('calls a genuine URL expired from its expiry on', () => {
    const signature = signer.sign(id, expires);
    expect(signer.verify(id, String(expires), signature, new Date(expires * 1000 - 1))).toBe('valid');
    expect(signer.verify(id, String(expires), signature, new Date(expires * 1000))).toBe('expired');
    expect(signer.verify(id, String(expires), signature, new Date((expires + 3600) * 1000))).toBe('expired');
  });

  it('refuses a signature made with another secret, and checks it before the expiry', () => {
    const other = new ContentUrlSigner('another-secret-of-at-least-thirty-two-chars');
    const foreign = other.sign(id, expires);
    expect(signer.verify(id, String(expires), foreign, before)).toBe('forged');
    // Long expired and forged: a forger is not told the expiry is the trouble.
    expect(signer.verify(id, String(expires), foreign, new Date((expires + 10) * 1000))).toBe('forged');
  });

  it('refuses a tampered, truncated, padded or missing signature', () => {
    const signature = signer.sign(id, expires);
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const tampered of [flipped, signature.slice(0, -1), `${signature}=`, `${signature}A`, signature.toLowerCase(), '']) {
      expect(signer.verify(id, String(expires), tampered, before), tampered).toBe('forged');
    }
    expect(signer.verify(id, String(expires), undefined, before)).toBe('forged');
    expect(signer.verify(id, undefined, signature, before)).toBe('forged');
  });
});
