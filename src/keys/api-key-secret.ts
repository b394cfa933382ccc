import { hash, randomBytes } from 'node:crypto';

/** Every Switchyard key starts with this, so leaked keys are recognisable by secret scanners. */
export const apiKeyPrefix = 'sy-';

/** A new secret key: the prefix and 32 random bytes in base64url (256 bits of entropy). */
export function mintApiKeySecret(): string {
  return apiKeyPrefix + randomBytes(32).toString('base64url');
}

/** Keys are stored only as SHA-256 digests: high-entropy secrets need no slow password hash. */
export function hashApiKey(secret: string): string {
  // The one-shot form: a Hash object per call costs twice as much, on every request.
  return hash('sha256', secret, 'hex');
}

/** The part of a key shown in lists, enough to recognise it and too short to use. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, apiKeyPrefix.length + 6);
}

export function mintKeyId(): string {
  return 'key_' + randomBytes(9).toString('base64url');
}
