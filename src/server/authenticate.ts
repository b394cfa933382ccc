import { GatewayError } from '../errors/gateway-error.js';
import { apiKeyPrefix } from '../keys/api-key-secret.js';
import type { ApiKeyVerifier } from '../keys/api-key-verifier.js';
import type { ApiKeyRecord, ApiKeyStore } from '../storage/ports.js';
import type { HeaderSource } from './request-headers.js';

/** The key a client presented: `Authorization: Bearer` (OpenAI clients) or `x-api-key` (Anthropic clients). */
export function presentedKey(headers: HeaderSource): string | undefined {
  const fromApiKeyHeader = headers.get('x-api-key')?.trim() || undefined;
  const fromBearer = /^Bearer\s+(.+)$/i.exec(headers.get('authorization')?.trim() ?? '')?.[1]?.trim();
  // A client may send a vendor key in one header and ours in the other: prefer the one that is ours.
  if (fromBearer?.startsWith(apiKeyPrefix) && !fromApiKeyHeader?.startsWith(apiKeyPrefix)) return fromBearer;
  return fromApiKeyHeader ?? fromBearer;
}

export type OpenAccessMode = 'auto' | 'always' | 'never';

/** Whether keyless calls get through at this moment: always, only while no key exists yet, or not. */
export type OpenAccessState = 'always' | 'until-first-key' | 'off';

/**
 * Decides who is calling. Without any key in the store, `auto` lets every call through
 * anonymously, so a fresh install works at once with SDKs that insist on sending some key (on
 * loopback only); once a key exists, every call needs a valid one. `always` checks a key that is
 * presented and lets keyless calls through; `never` requires a valid key.
 */
export class Authenticator {
  private keysExistUntil = 0;
  private keysExist = false;

  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly store: ApiKeyStore,
    private readonly openAccess: OpenAccessMode,
  ) {}

  /** The caller's key record; undefined for an anonymous call that open access allows. */
  async authenticate(headers: HeaderSource, keyRequired = true): Promise<ApiKeyRecord | undefined> {
    const secret = presentedKey(headers);
    if (this.openAccess === 'auto' && (await this.allowsAnonymous())) return undefined;
    if (secret === undefined || secret === '') {
      if (!keyRequired || (await this.allowsAnonymous())) return undefined;
      throw new GatewayError('authentication_required', 'Missing API key: send it as "Authorization: Bearer <key>" or "x-api-key: <key>".');
    }
    const record = await this.verifier.verify(secret);
    if (record === undefined) throw new GatewayError('invalid_api_key', 'Invalid API key.');
    return record;
  }

  async openAccessState(): Promise<OpenAccessState> {
    if (this.openAccess === 'always') return 'always';
    return (await this.allowsAnonymous()) ? 'until-first-key' : 'off';
  }

  private async allowsAnonymous(): Promise<boolean> {
    if (this.openAccess === 'always') return true;
    if (this.openAccess === 'never') return false;
    const now = Date.now();
    if (now >= this.keysExistUntil) {
      this.keysExist = (await this.store.list()).length > 0;
      this.keysExistUntil = now + 2_000;
    }
    return !this.keysExist;
  }
}
