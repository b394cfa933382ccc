import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { displayPrefix, hashApiKey, mintApiKeySecret } from '../keys/api-key-secret.js';
import { ApiKeyVerifier } from '../keys/api-key-verifier.js';
import type { ApiKeyStore } from '../keys/api-key-store.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import { Authenticator, bearerToken, type OpenAccessMode } from './authenticate.js';
import { apiKeyRecord } from '../keys/api-key-record.js';

/** An in-memory key store that counts how often open access asked whether any key exists. */
class CountingKeyStore implements ApiKeyStore {
  readonly records: ApiKeyRecord[] = [];
  existenceQueries = 0;

  async insert(record: ApiKeyRecord): Promise<void> {
    this.records.push(record);
  }
  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.records.find((record) => record.hash === hash);
  }
  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    return this.records.find((record) => record.id === id);
  }
  async list(): Promise<ApiKeyRecord[]> {
    return [...this.records];
  }
  async update(): Promise<ApiKeyRecord | undefined> {
    throw new Error('not used here');
  }
  async rotate(): Promise<ApiKeyRecord | undefined> {
    throw new Error('not used here');
  }
  async markUsed(): Promise<void> {}
  async revoke(id: string, at: Date): Promise<boolean> {
    const index = this.records.findIndex((record) => record.id === id && record.revokedAt === null);
    if (index < 0) return false;
    this.records[index] = { ...this.records[index]!, revokedAt: at };
    return true;
  }
  async anyExists(): Promise<boolean> {
    this.existenceQueries += 1;
    return this.records.length > 0;
  }
}

function keyRecord(secret: string, id = 'key_1'): ApiKeyRecord {
  return apiKeyRecord({
    id,
    name: 'unit',
    prefix: displayPrefix(secret),
    hash: hashApiKey(secret),
    scopes: { endpoints: null, models: null },
    budgetNanoUsd: null,
    rpm: null,
    createdAt: new Date(),
  });
}

function setUp(mode: OpenAccessMode = 'auto'): { store: CountingKeyStore; authenticator: Authenticator } {
  const store = new CountingKeyStore();
  return { store, authenticator: new Authenticator(new ApiKeyVerifier(store), store, mode) };
}

/** A call from a client on this machine (open access takes no other), with this key if any. */
function bearer(secret?: string): Headers {
  return new Headers({ host: '127.0.0.1:8787', ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }) });
}

async function refusal(attempt: Promise<unknown>): Promise<string> {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return (error as GatewayError).code;
}

describe('Authenticator in open access (auto)', () => {
  it('lets keyless calls and placeholder values through while no key exists, asking the store each time', async () => {
    const { store, authenticator } = setUp();
    expect(await authenticator.authenticate(bearer())).toBeUndefined();
    expect(await authenticator.authenticate(bearer('any'))).toBeUndefined();
    expect(await authenticator.authenticate(new Headers({ host: 'localhost:8787', 'x-api-key': 'anything-until-you-create-keys' }))).toBeUndefined();
    expect(await authenticator.authenticate(bearer('sk-proj-some-vendor-key'))).toBeUndefined();
    expect(store.existenceQueries).toBe(4);
  });

  it('refuses a value shaped like our keys that does not verify, even while no key exists', async () => {
    const { authenticator } = setUp();
    expect(await refusal(authenticator.authenticate(bearer(mintApiKeySecret())))).toBe('invalid_api_key');
    expect(await refusal(authenticator.authenticate(new Headers({ 'x-api-key': 'sy-mistyped' })))).toBe('invalid_api_key');
  });

  it('closes on the very next call once a key exists, and never reopens or queries again', async () => {
    const { store, authenticator } = setUp();
    expect(await authenticator.authenticate(bearer())).toBeUndefined();
    const secret = mintApiKeySecret();
    await store.insert(keyRecord(secret));

    expect(await refusal(authenticator.authenticate(bearer()))).toBe('authentication_required');
    expect(await refusal(authenticator.authenticate(bearer('any')))).toBe('invalid_api_key');
    expect(await refusal(authenticator.authenticate(bearer(mintApiKeySecret())))).toBe('invalid_api_key');
    expect((await authenticator.authenticate(bearer(secret)))?.id).toBe('key_1');

    // Even if the store somehow reported no key again, the process stays closed.
    store.records.length = 0;
    const queriesAfterLatch = store.existenceQueries;
    expect(await refusal(authenticator.authenticate(bearer()))).toBe('authentication_required');
    expect(await refusal(authenticator.authenticate(bearer('any')))).toBe('invalid_api_key');
    expect(store.existenceQueries).toBe(queriesAfterLatch);
  });

  it('latches on a valid key without asking the store', async () => {
    const { store, authenticator } = setUp();
    const secret = mintApiKeySecret();
    await store.insert(keyRecord(secret));
    expect((await authenticator.authenticate(bearer(secret)))?.id).toBe('key_1');
    expect(await refusal(authenticator.authenticate(bearer()))).toBe('authentication_required');
    expect(store.existenceQueries).toBe(0);
  });

  it('counts a revoked key as a key: open access does not come back', async () => {
    const { store, authenticator } = setUp();
    const secret = mintApiKeySecret();
    await store.insert(keyRecord(secret));
    await store.revoke('key_1', new Date());
    expect(await refusal(authenticator.authenticate(bearer()))).toBe('authentication_required');
    expect(await refusal(authenticator.authenticate(bearer(secret)))).toBe('invalid_api_key');
  });

  it('keeps public discovery public without asking the store', async () => {
    const { store, authenticator } = setUp();
    await store.insert(keyRecord(mintApiKeySecret()));
    expect(await authenticator.authenticate(bearer(), false)).toBeUndefined();
    expect(store.existenceQueries).toBe(0);
  });
});

describe('Authenticator with a fixed mode', () => {
  it("'never' requires a valid key even with no key in the store", async () => {
    const { store, authenticator } = setUp('never');
    expect(await refusal(authenticator.authenticate(bearer()))).toBe('authentication_required');
    expect(await refusal(authenticator.authenticate(bearer('any')))).toBe('invalid_api_key');
    expect(store.existenceQueries).toBe(0);
  });

  it("'always' lets keyless calls through once keys exist but checks any value presented", async () => {
    const { store, authenticator } = setUp('always');
    const secret = mintApiKeySecret();
    await store.insert(keyRecord(secret));
    expect(await authenticator.authenticate(bearer())).toBeUndefined();
    expect((await authenticator.authenticate(bearer(secret)))?.id).toBe('key_1');
    expect(await refusal(authenticator.authenticate(bearer(mintApiKeySecret())))).toBe('invalid_api_key');
    expect(await refusal(authenticator.authenticate(bearer('any')))).toBe('invalid_api_key');
    expect(store.existenceQueries).toBe(0);
  });
});

describe('Authenticator and key use', () => {
  it('notes one use per call with a valid key, none for keyless or refused calls', async () => {
    const store = new CountingKeyStore();
    const uses: string[] = [];
    const authenticator = new Authenticator(new ApiKeyVerifier(store), store, 'always', { record: (id) => uses.push(id) });
    const secret = mintApiKeySecret();
    await store.insert(keyRecord(secret, 'key_used'));
    await authenticator.authenticate(bearer(secret));
    await authenticator.authenticate(new Headers({ 'x-api-key': secret }));
    await authenticator.authenticate(bearer());
    await refusal(authenticator.authenticate(bearer(mintApiKeySecret())));
    expect(uses).toEqual(['key_used', 'key_used']);
  });

  it('forgets cached lookups on demand, so a change made here holds from the next call', async () => {
    const { store, authenticator } = setUp('never');
    const secret = mintApiKeySecret();
    await store.insert(keyRecord(secret));
    expect((await authenticator.authenticate(bearer(secret)))?.id).toBe('key_1');
    await store.revoke('key_1', new Date());
    // Still cached: another process's change would take up to the cache's lifetime.
    expect((await authenticator.authenticate(bearer(secret)))?.id).toBe('key_1');
    authenticator.forgetCachedKeys();
    expect(await refusal(authenticator.authenticate(bearer(secret)))).toBe('invalid_api_key');
  });
});

describe('reading the bearer token', () => {
  const bearerPattern = /^Bearer\s+(.+)$/i;
  const values = [
    'Bearer sy-abc',
    'Bearer   sy-abc  ',
    '  Bearer sy-abc',
    'bearer sy-abc',
    'BEARER\tsy-abc',
    'Bearer\u00a0sy-abc',
    'Bearer ',
    'Bearer',
    'Bearer  \u00a0 ',
    'Bearer sy-a b c',
    'Bearer sy-abc\nx',
    'Bearer sy-abc\u2028',
    'Bearer sy-\u2029abc',
    'Bearersy-abc',
    'Basic dXNlcjpwYXNz',
    '',
    'sy-abc',
  ];
  it.each(values)('reads %j as the pattern "Bearer <token>" does', (value) => {
    expect(bearerToken(value)).toBe(bearerPattern.exec(value.trim())?.[1]?.trim());
  });
});
