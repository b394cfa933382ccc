import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../src/keys/api-key-secret.js';
import { createLogger } from '../../src/logging/logger.js';
import { startGateway, type RunningGateway } from '../../src/app/start-gateway.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { ApiKeyRecord, ApiKeyScopes } from '../../src/keys/api-key.js';
import type { Storage } from '../../src/storage/ports.js';
import { readFixture } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { apiKeyRecord } from '../../src/keys/api-key-record.js';

/**
 * Who may call what: keys presented as Bearer or x-api-key, revoked and expired keys, endpoint
 * and model scopes, and keyless access on a fresh install. Models are named as in the default
 * catalog but served by fake upstreams replaying recordings, so a refusal can be shown to have
 * reached no upstream.
 */

let openaiUpstream: ScriptedUpstream;
let anthropicUpstream: ScriptedUpstream;

beforeAll(async () => {
  openaiUpstream = await startScriptedUpstream();
  openaiUpstream.reply({ body: readFixture('openai/chat/openai-text.json') });
  anthropicUpstream = await startScriptedUpstream();
  anthropicUpstream.reply({ body: readFixture('anthropic/messages/anthropic-text.json') });
});
afterAll(async () => {
  await openaiUpstream.close();
  await anthropicUpstream.close();
});
beforeEach(() => {
  openaiUpstream.requests.length = 0;
  anthropicUpstream.requests.length = 0;
});

function catalogConfig(server: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    server,
    providers: {
      'sim-openai': { type: 'openai', base_url: `${openaiUpstream.url}/v1`, api_key: 'upstream-openai-secret' },
      'sim-anthropic': { type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'upstream-anthropic-secret' },
    },
    models: [
      { id: 'sim-gpt', aliases: ['sim'], routes: [{ provider: 'sim-openai', model: 'gpt-4.1-nano' }] },
      { id: 'sim-claude', routes: [{ provider: 'sim-anthropic', model: 'claude-sonnet-4-5-20250929' }] },
    ],
  };
}

function upstreamRequestCount(): number {
  return openaiUpstream.requests.length + anthropicUpstream.requests.length;
}

interface MintedKey {
  readonly secret: string;
  readonly record: ApiKeyRecord;
}

async function insertKey(storage: Storage, options: { scopes?: Partial<ApiKeyScopes>; revokedAt?: Date; expiresAt?: Date } = {}): Promise<MintedKey> {
  const secret = mintApiKeySecret();
  const record = apiKeyRecord({
    id: mintKeyId(),
    name: 'e2e',
    prefix: displayPrefix(secret),
    hash: hashApiKey(secret),
    scopes: { endpoints: options.scopes?.endpoints ?? null, models: options.scopes?.models ?? null },
    budgetNanoUsd: null,
    rpm: null,
    createdAt: new Date(),
    revokedAt: options.revokedAt ?? null,
    expiresAt: options.expiresAt ?? null,
  });
  await storage.keys.insert(record);
  return { secret, record };
}

type KeyStyle = 'bearer' | 'x-api-key';

/** A chat call with plain fetch, so the key can be absent or sent in either header. */
async function chat(gateway: RunningGateway, model: string, secret?: string, style: KeyStyle = 'bearer'): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret !== undefined) {
    if (style === 'bearer') headers.authorization = `Bearer ${secret}`;
    else headers['x-api-key'] = secret;
  }
  return fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
  });
}

interface ExpectedError {
  readonly type: string;
  readonly code: string;
  readonly param?: string | null;
}

/** Checks status, OpenAI shape and request id, and that the presented key shows nowhere in the answer. */
async function expectRefusal(response: Response, status: number, expected: ExpectedError, presented?: string): Promise<void> {
  const text = await response.text();
  expect(response.status).toBe(status);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_[0-9a-f]{24}$/);
  expect(JSON.parse(text)).toEqual({
    error: { message: expect.any(String), type: expected.type, param: expected.param ?? null, code: expected.code, request_id: requestId },
  });
  if (presented !== undefined) {
    expect(text).not.toContain(presented);
    expect(text).not.toContain(presented.slice(-12));
  }
  expect(upstreamRequestCount()).toBe(0);
}

const unauthenticated: ExpectedError = { type: 'authentication_error', code: 'invalid_api_key' };

describe('once a key exists', () => {
  let gateway: TestGateway;
  let full: MintedKey;
  let revoked: MintedKey;
  let expired: MintedKey;
  let messagesOnly: MintedKey;
  let claudeOnly: MintedKey;
  const presentedSecrets: string[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway(catalogConfig());
    const storage = gateway.services.storage;
    full = await insertKey(storage);
    revoked = await insertKey(storage, { revokedAt: new Date(Date.now() - 1_000) });
    expired = await insertKey(storage, { expiresAt: new Date(Date.now() - 1_000) });
    messagesOnly = await insertKey(storage, { scopes: { endpoints: ['messages'] } });
    claudeOnly = await insertKey(storage, { scopes: { models: ['sim-claude'] } });
    presentedSecrets.push(full.secret, revoked.secret, expired.secret, messagesOnly.secret, claudeOnly.secret);
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('refuses a call without a key with 401', async () => {
    await expectRefusal(await chat(gateway, 'sim-gpt'), 401, unauthenticated);
  });

  it('refuses an empty Bearer value with 401', async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' },
      body: JSON.stringify({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await expectRefusal(response, 401, unauthenticated);
  });

  describe.each<KeyStyle>(['bearer', 'x-api-key'])('with the key in %s', (style) => {
    it.each([
      ['an unknown key with the Switchyard prefix', () => mintApiKeySecret()],
      ['a key without the Switchyard prefix', () => 'sk-not-a-switchyard-key-0123456789'],
      ['a valid key with one character changed', () => full.secret.slice(0, -1) + (full.secret.endsWith('A') ? 'B' : 'A')],
    ])('refuses %s with 401 and never echoes it', async (_name, makeSecret) => {
      const secret = makeSecret();
      await expectRefusal(await chat(gateway, 'sim-gpt', secret, style), 401, unauthenticated, secret);
    });

    it('accepts a valid key', async () => {
      const response = await chat(gateway, 'sim-gpt', full.secret, style);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      const body = (await response.json()) as { choices: { message: { content: string } }[] };
      expect(body.choices[0]?.message.content).toContain('Galaxy Day');
      expect(openaiUpstream.requests).toHaveLength(1);
      // The client's key is the gateway's business only: the upstream gets the provider credential.
      expect(JSON.stringify(openaiUpstream.requests[0]?.headers)).not.toContain(full.secret);
    });

    it('refuses a revoked key with 401', async () => {
      await expectRefusal(await chat(gateway, 'sim-gpt', revoked.secret, style), 401, unauthenticated, revoked.secret);
    });

    it('refuses an expired key with 401', async () => {
      await expectRefusal(await chat(gateway, 'sim-gpt', expired.secret, style), 401, unauthenticated, expired.secret);
    });
  });

  it('the official client sends a valid key as Bearer and gets an answer', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: full.secret, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]?.message.content).toContain('Galaxy Day');
  });

  it('the official client surfaces a bad key as an AuthenticationError with the request id', async () => {
    const secret = mintApiKeySecret();
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    const apiError = error as APIError;
    expect(apiError.status).toBe(401);
    expect(apiError.type).toBe('authentication_error');
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.message).not.toContain(secret);
    expect(upstreamRequestCount()).toBe(0);
  });

  it('refuses a key scoped to the messages endpoints on chat with 403', async () => {
    await expectRefusal(
      await chat(gateway, 'sim-claude', messagesOnly.secret),
      403,
      { type: 'permission_error', code: 'endpoint_not_permitted' },
      messagesOnly.secret,
    );
  });

  it('refuses a key scoped to sim-claude on sim-gpt with 403 naming the model param', async () => {
    await expectRefusal(
      await chat(gateway, 'sim-gpt', claudeOnly.secret),
      403,
      { type: 'permission_error', code: 'model_not_permitted', param: 'model' },
      claudeOnly.secret,
    );
  });

  it('refuses a key scoped to sim-claude on an alias of sim-gpt with 403', async () => {
    await expectRefusal(await chat(gateway, 'sim', claudeOnly.secret), 403, { type: 'permission_error', code: 'model_not_permitted', param: 'model' });
  });

  it('lets a key scoped to sim-claude call sim-claude', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: claudeOnly.secret, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'sim-claude', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]?.message.content).toContain("Hello! I'm doing well");
    expect(anthropicUpstream.requests).toHaveLength(1);
    expect(openaiUpstream.requests).toHaveLength(0);
  });

  it('lists only sim-claude to a key scoped to it', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: claudeOnly.secret, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['sim-claude']);
  });

  it('hides a model the scoped key may not call from retrieval', async () => {
    const response = await fetch(`${gateway.url}/v1/models/sim-gpt`, { headers: { authorization: `Bearer ${claudeOnly.secret}` } });
    await expectRefusal(response, 404, { type: 'invalid_request_error', code: 'model_not_found', param: 'model' }, claudeOnly.secret);
  });

  it('lists every model to an unscoped key', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: full.secret, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids.sort()).toEqual(['sim-claude', 'sim-gpt']);
  });

  it('never writes a presented key into the logs', async () => {
    await gateway.services.ledger.flush();
    const logs = gateway.logs();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of presentedSecrets) expect(logs).not.toContain(secret);
  });
});

describe('revoking a key that is in use', () => {
  let storage: Storage;
  const gateways: RunningGateway[] = [];

  /** Gateways sharing one database, as several instances of a deployment do. */
  async function startSharing(): Promise<RunningGateway> {
    const config = configSchema.parse({ ...catalogConfig({ port: 0 }), log: { level: 'silent' } });
    const gateway = await startGateway(config, { storage, logger: createLogger('silent') });
    gateways.push(gateway);
    return gateway;
  }

  beforeAll(async () => {
    storage = await openStorage('sqlite::memory:');
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await storage.close();
  });

  it('is refused at once by a gateway that has not seen it, and by a running one within the 5 s cache', async () => {
    const running = await startSharing();
    const key = await insertKey(storage);
    expect((await chat(running, 'sim-gpt', key.secret)).status).toBe(200);

    const revokedAt = Date.now();
    expect(await storage.keys.revoke(key.record.id, new Date(revokedAt))).toBe(true);
    openaiUpstream.requests.length = 0;

    // No cache of the lookup: a fresh instance refuses the key on its first call.
    const fresh = await startSharing();
    await expectRefusal(await chat(fresh, 'sim-gpt', key.secret), 401, unauthenticated, key.secret);

    // The running instance cached the lookup; the revocation takes effect when that cache lapses.
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 7_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const response = await chat(running, 'sim-gpt', key.secret);
      status = response.status;
      await response.body?.cancel();
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(6_000);
  }, 15_000);
});

describe('keyless access', () => {
  it('lets a call without any key through on a fresh install (no keys, loopback)', async () => {
    const gateway = await startTestGateway(catalogConfig());
    try {
      const response = await chat(gateway, 'sim-gpt');
      expect(response.status).toBe(200);
      // SDKs that insist on sending some key work too.
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'anything', maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] });
      expect(completion.choices[0]?.message.content).toContain('Galaxy Day');
    } finally {
      await gateway.close();
    }
  });

  it('stops letting keyless calls through on the very next call once the first key is created', async () => {
    const gateway = await startTestGateway(catalogConfig());
    try {
      expect((await chat(gateway, 'sim-gpt')).status).toBe(200);
      openaiUpstream.requests.length = 0;
      await insertKey(gateway.services.storage);
      await expectRefusal(await chat(gateway, 'sim-gpt'), 401, unauthenticated);
    } finally {
      await gateway.close();
    }
  });

  it("refuses a keyless call with 401 when open_access is 'never', even with no keys", async () => {
    const gateway = await startTestGateway(catalogConfig({ open_access: 'never' }));
    try {
      await expectRefusal(await chat(gateway, 'sim-gpt'), 401, unauthenticated);
      const bogus = 'sy-bogus-key-that-does-not-exist';
      await expectRefusal(await chat(gateway, 'sim-gpt', bogus, 'x-api-key'), 401, unauthenticated, bogus);
    } finally {
      await gateway.close();
    }
  });

  it('refuses a keyless call with 401 on a non-loopback address even with no keys', async () => {
    const gateway = await startTestGateway(catalogConfig({ host: '0.0.0.0' }));
    try {
      await expectRefusal(await chat(gateway, 'sim-gpt'), 401, unauthenticated);
    } finally {
      await gateway.close();
    }
  });

  it("lets a keyless call through with open_access 'always' even once keys exist, but still checks a presented key", async () => {
    const gateway = await startTestGateway(catalogConfig({ open_access: 'always' }));
    try {
      await insertKey(gateway.services.storage);
      expect((await chat(gateway, 'sim-gpt')).status).toBe(200);
      openaiUpstream.requests.length = 0;
      const bogus = mintApiKeySecret();
      await expectRefusal(await chat(gateway, 'sim-gpt', bogus), 401, unauthenticated, bogus);
    } finally {
      await gateway.close();
    }
  });
});
