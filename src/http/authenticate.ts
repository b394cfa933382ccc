import { GatewayError } from '../errors/gateway-error.js';
import { apiKeyPrefix } from '../keys/api-key-secret.js';
import type { ApiKeyVerifier } from '../keys/api-key-verifier.js';
import type { KeyUseRecorder } from '../keys/key-use-recorder.js';
import type { ApiKeyStore } from '../keys/api-key-store.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import { assertOpenAccessCaller } from './open-access-caller.js';
import type { HeaderSource } from './request-headers.js';

/** The key a client presented: `Authorization: Bearer` (OpenAI clients) or `x-api-key` (Anthropic clients). */
export function presentedKey(headers: HeaderSource): string | undefined {
  const fromApiKeyHeader = headers.get('x-api-key')?.trim() || undefined;
  const authorization = headers.get('authorization');
  const fromBearer = authorization === null ? undefined : bearerToken(authorization);
  // A client may send a vendor key in one header and ours in the other: prefer the one that is ours.
  if (fromBearer?.startsWith(apiKeyPrefix) && !fromApiKeyHeader?.startsWith(apiKeyPrefix)) return fromBearer;
  return fromApiKeyHeader ?? fromBearer;
}

const bearerPattern = /^Bearer\s+(.+)$/i;
/** Characters `.` does not match, so a value holding one is left to the pattern itself. */
const lineTerminator = /[\n\r\u2028\u2029]/;

/**
 * The token of `Bearer <token>` (the scheme in any case), as `bearerPattern` reads it. The usual
 * header, `Bearer ` and a token on one line, is read without the regular expression, which costs
 * several times more on every call.
 */
export function bearerToken(authorization: string): string | undefined {
  const value = authorization.trim();
  if (value.length > 7 && value.startsWith('Bearer ') && !lineTerminator.test(value)) {
    // `\s+` then `.+` on a trimmed value: the token is what follows the run of spaces.
    const token = value.slice(7).trimStart();
    return token === '' ? undefined : token;
  }
  return bearerPattern.exec(value)?.[1]?.trim();
}

export type OpenAccessMode = 'auto' | 'always' | 'never';

/** Whether keyless calls get through at this moment: always, only while no key exists yet, or not. */
export type OpenAccessState = 'always' | 'until-first-key' | 'off';

/**
 * Decides who is calling. `auto` is open access for a fresh install on loopback: until the first
 * key exists, calls need no key, and the placeholder values SDKs insist on sending (`any`,
 * `anything-until-you-create-keys`) pass anonymously; a value shaped like our keys (`sy-…`) must
 * verify, since it can only be a wrong, revoked or mistyped key. While access is open, every
 * anonymous call asks the store whether a key exists, so a key created anywhere (the CLI, another
 * instance) ends open access on the next call; once a key has been seen, access stays closed for
 * the life of the process and costs no query. `always` checks a key that is presented and lets
 * keyless calls through; `never` requires a valid key. A call let in without a key must also show
 * it comes from no web page of another site (`assertOpenAccessCaller`).
 */
export class Authenticator {
  /** Latched: keys are revoked but never deleted, so once one exists open access cannot return. */
  private keysExist = false;

  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly store: ApiKeyStore,
    private readonly openAccess: OpenAccessMode,
    private readonly uses?: Pick<KeyUseRecorder, 'record'>,
  ) {}

  /** The caller's key record; undefined for an anonymous call that open access allows. */
  async authenticate(headers: HeaderSource, keyRequired = true, options: { readonly anonymous?: boolean } = {}): Promise<ApiKeyRecord | undefined> {
    try {
      return await this.identify(headers, keyRequired, options);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      // The key store did not answer: a clear 503 the client may retry, never a 500.
      throw new GatewayError('database_unavailable', 'The gateway cannot check API keys right now (its database does not answer); try again shortly.', { retryAfterSeconds: 1, cause: error });
    }
  }

  private async identify(headers: HeaderSource, keyRequired: boolean, options: { readonly anonymous?: boolean }): Promise<ApiKeyRecord | undefined> {
    const secret = presentedKey(headers);
    const anonymousAllowed = options.anonymous !== false;
    if (secret === undefined || secret === '') {
      if (anonymousAllowed && !keyRequired) return undefined;
      if (anonymousAllowed && (await this.allowsAnonymous())) return this.openAccessCaller(headers);
      throw new GatewayError('authentication_required', 'Missing API key: send it as "Authorization: Bearer <key>" or "x-api-key: <key>".');
    }
    const record = await this.verifier.verify(secret);
    if (record !== undefined) {
      this.keysExist = true;
      this.uses?.record(record.id);
      return record;
    }
    // Placeholders ride along only in `auto`: `always` promises that a presented key is checked.
    if (anonymousAllowed && this.openAccess === 'auto' && !secret.startsWith(apiKeyPrefix) && (await this.allowsAnonymous())) {
      // A public endpoint (discovery) serves anyone anyway; where a key is required, open access decides.
      return keyRequired ? this.openAccessCaller(headers) : undefined;
    }
    throw new GatewayError('invalid_api_key', 'Invalid API key.');
  }

  /** An anonymous call let in by open access, once its headers show it comes from no other site. */
  private openAccessCaller(headers: HeaderSource): undefined {
    assertOpenAccessCaller(headers, this.openAccess === 'auto');
    return undefined;
  }

  /** Forgets cached key lookups, so a change this process just made to a key holds from the next call. */
  forgetCachedKeys(): void {
    this.verifier.invalidate();
  }

  async openAccessState(): Promise<OpenAccessState> {
    if (this.openAccess === 'always') return 'always';
    return (await this.allowsAnonymous()) ? 'until-first-key' : 'off';
  }

  private async allowsAnonymous(): Promise<boolean> {
    if (this.openAccess === 'always') return true;
    if (this.openAccess === 'never' || this.keysExist) return false;
    // Only ever set, never cleared: a slower concurrent query that started before the first key
    // was created must not reopen access.
    if (await this.store.anyExists()) this.keysExist = true;
    return !this.keysExist;
  }
}
