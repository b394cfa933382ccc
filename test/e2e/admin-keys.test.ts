import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { formatNanoUsd } from '../../src/catalog/pricing/decimal-usd.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../src/keys/api-key-secret.js';
import { apiKeyRecord } from '../../src/keys/api-key-record.js';
import type { Storage } from '../../src/storage/ports.js';
import { insertApiKey } from '../support/insert-api-key.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * The admin API for keys (docs/api.md, "Admin API"): keys made, changed, revoked and rotated over HTTP
 * take effect for clients at once, are audited with the admin key that acted, and never show a
 * secret twice. Clients are the real `openai` SDK.
 */

let gateway: TestGateway;
let adminSecret: string;
let adminId: string;
let userSecret: string;

async function insertAdminKey(storage: Storage): Promise<{ id: string; secret: string }> {
  const secret = mintApiKeySecret();
  const id = mintKeyId();
  await storage.keys.insert(apiKeyRecord({ id, name: 'operator', prefix: displayPrefix(secret), hash: hashApiKey(secret), admin: true, createdAt: new Date() }));
  return { id, secret };
}

beforeAll(async () => {
  gateway = await startTestGateway({ ...defaultConfig({}), keys: { rotation_grace_seconds: 3600 } });
  ({ id: adminId, secret: adminSecret } = await insertAdminKey(gateway.services.storage));
  userSecret = await insertApiKey(gateway.services.storage, 'not an admin');
});
afterAll(async () => {
  await gateway.close();
});

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

async function call(method: string, route: string, options: { body?: unknown; rawBody?: string; contentType?: string; key?: string | null } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? adminSecret : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${gateway.url}${route}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), headers: response.headers };
}

async function createKey(body: Record<string, unknown>): Promise<{ id: string; key: string; object: Record<string, unknown> }> {
  const created = await call('POST', '/admin/keys', { body });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, key: created.body.key as string, object: created.body };
}

function client(apiKey: string): OpenAI {
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 });
}

const chat = (apiKey: string, model = 'sim-gpt') => client(apiKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] });

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof OpenAI.APIError && error.status !== undefined) return error.status;
    throw error;
  }
}

function errorOf(answer: Answer): { type: string; param: string | null; code: string | null; message: string } {
  return answer.body.error as { type: string; param: string | null; code: string | null; message: string };
}

async function auditFor(targetId: string): Promise<Record<string, unknown>[]> {
  const page = await call('GET', '/admin/audit?limit=100');
  expect(page.status).toBe(200);
  return (page.body.data as Record<string, unknown>[]).filter((entry) => entry.target_id === targetId).reverse();
}

describe('admin keys API', () => {
  it('creates a key shown once, which the openai SDK can use at once, and describes it without its hash', async () => {
    const created = await call('POST', '/admin/keys', {
      body: {
        name: 'ci',
        scopes: { endpoints: ['chat', 'models'], models: ['sim'] },
        budget_usd: '12.50',
        daily_budget_usd: '1.000000001',
        monthly_budget_usd: '5',
        rpm: 100,
        tpm: 50_000,
        concurrency: 4,
        expires_at: '2099-01-31',
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBeTruthy();
    const key = created.body.key as string;
    expect(key).toMatch(/^sy-[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      object: 'api_key',
      name: 'ci',
      prefix: key.slice(0, 9),
      admin: false,
      scopes: { endpoints: ['chat', 'models'], models: ['sim-gpt'] },
      rpm: 100,
      tpm: 50_000,
      concurrency: 4,
      budget_usd: '12.50',
      daily_budget_usd: '1.000000001',
      monthly_budget_usd: '5.00',
      spend: { total_usd: '0.00', month_usd: '0.00', day_usd: '0.00' },
      expires_at: '2099-01-31T00:00:00.000Z',
      revoked_at: null,
      last_used_at: null,
      status: 'active',
    });
    const id = created.body.id as string;
    expect(JSON.stringify(created.body)).not.toContain(hashApiKey(key));

    const completion = await chat(key, 'sim');
    expect(completion.model).toBe('sim-gpt');
    expect(await statusOf(chat(key, 'sim-claude'))).toBe(403);

    const read = await call('GET', `/admin/keys/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.key).toBeUndefined();
    expect(read.body).toMatchObject({ id, name: 'ci', budget_usd: '12.50' });
    const listed = await call('GET', '/admin/keys');
    expect(listed.body).toMatchObject({ object: 'list', has_more: false });
    const listedKeys = listed.body.data as Record<string, unknown>[];
    expect(listedKeys[0]?.id).toBe(id);
    const firstPage = await call('GET', '/admin/keys?limit=1');
    expect(firstPage.body).toMatchObject({ first_id: id, last_id: id, has_more: true });
    const secondPage = await call('GET', `/admin/keys?limit=100&after=${id}`);
    expect((secondPage.body.data as Record<string, unknown>[]).map((item) => item.id)).toEqual(listedKeys.slice(1).map((item) => item.id));
    expect(secondPage.body.has_more).toBe(false);
    expect(listedKeys.map((item) => item.id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(JSON.stringify(listed.body)).not.toMatch(/"hash"|previous_hash/);
  });

  it('shows spend from the ledger to the nano-dollar', async () => {
    const { id, key } = await createKey({ name: 'spender' });
    await chat(key);
    await chat(key);
    await gateway.services.ledger.flush();
    const entries = await gateway.services.storage.ledger.list({ keyId: id });
    expect(entries).toHaveLength(2);
    const total = entries.reduce((sum, entry) => sum + entry.costNanoUsd, 0n);
    expect(total).toBeGreaterThan(0n);
    const read = await call('GET', `/admin/keys/${id}`);
    expect(read.body.spend).toEqual({ total_usd: formatNanoUsd(total), month_usd: formatNanoUsd(total), day_usd: formatNanoUsd(total) });
  });

  it('applies changed scopes and limits to the very next call, and null clears them', async () => {
    const { id, key } = await createKey({ name: 'changing' });
    expect((await chat(key, 'sim-claude')).model).toBe('sim-claude');

    const narrowed = await call('PATCH', `/admin/keys/${id}`, { body: { scopes: { models: ['sim'] } } });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scopes).toEqual({ endpoints: null, models: ['sim-gpt'] });
    expect(await statusOf(chat(key, 'sim-claude'))).toBe(403);
    expect((await chat(key, 'sim-gpt')).model).toBe('sim-gpt');

    const endpoints = await call('PATCH', `/admin/keys/${id}`, { body: { scopes: { endpoints: ['messages'] } } });
    expect(endpoints.body.scopes).toEqual({ endpoints: ['messages'], models: ['sim-gpt'] });
    expect(await statusOf(chat(key, 'sim-gpt'))).toBe(403);

    await call('PATCH', `/admin/keys/${id}`, { body: { scopes: null, rpm: 1 } });
    expect((await chat(key, 'sim-claude')).model).toBe('sim-claude');
    expect(await statusOf(chat(key))).toBe(429);

    const cleared = await call('PATCH', `/admin/keys/${id}`, { body: { rpm: null, budget_usd: '0' } });
    expect(cleared.body).toMatchObject({ rpm: null, budget_usd: '0.00' });
    expect(await statusOf(chat(key))).toBe(402);

    const renamed = await call('PATCH', `/admin/keys/${id}`, { body: { budget_usd: null, name: 'changed', expires_at: '2099-12-31T23:00:00Z' } });
    expect(renamed.body).toMatchObject({ name: 'changed', budget_usd: null, expires_at: '2099-12-31T23:00:00.000Z', status: 'active' });
    expect((await chat(key)).model).toBe('sim-gpt');

    const audit = await auditFor(id);
    expect(audit.map((entry) => entry.action)).toEqual(['key.create', 'key.update', 'key.update', 'key.update', 'key.update', 'key.update']);
    expect(audit.every((entry) => entry.actor_key_id === adminId)).toBe(true);
    expect(audit[1]?.details).toEqual({ scopes: { models: ['sim-gpt'] } });
    expect(audit[4]?.details).toEqual({ rpm: null, budget_usd: '0.00' });
  });

  it('revokes a key: 401 from then on, revoking again changes nothing, and it stays listed as revoked', async () => {
    const { id, key } = await createKey({ name: 'doomed' });
    expect((await chat(key)).model).toBe('sim-gpt');
    const revoked = await call('DELETE', `/admin/keys/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, status: 'revoked' });
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect(await statusOf(chat(key))).toBe(401);
    const again = await call('DELETE', `/admin/keys/${id}`);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    expect((await auditFor(id)).map((entry) => entry.action)).toEqual(['key.create', 'key.revoke']);
    expect(await call('POST', `/admin/keys/${id}/rotate`, { body: {} })).toMatchObject({ status: 409 });
  });

  it('rotates: the new secret works, the old one through its grace period, and not at all with a grace of 0', async () => {
    const { id, key: first } = await createKey({ name: 'rotating' });
    const rotated = await call('POST', `/admin/keys/${id}/rotate`);
    expect(rotated.status).toBe(200);
    const second = rotated.body.key as string;
    expect(second).not.toBe(first);
    expect(rotated.body).toMatchObject({ id, prefix: second.slice(0, 9), status: 'active' });
    // The configured grace period (3600 s) applies when the body names none.
    const graceEnd = Date.parse(rotated.body.previous_key_expires_at as string);
    expect(graceEnd - Date.now()).toBeGreaterThan(3590_000);
    expect(graceEnd - Date.now()).toBeLessThanOrEqual(3600_000);
    expect((await chat(second)).model).toBe('sim-gpt');
    expect((await chat(first)).model).toBe('sim-gpt');

    const immediate = await call('POST', `/admin/keys/${id}/rotate`, { body: { grace_seconds: 0 } });
    const third = immediate.body.key as string;
    expect(await statusOf(chat(second))).toBe(401);
    // The secret before the last rotation is gone too: only one previous secret is kept.
    expect(await statusOf(chat(first))).toBe(401);
    expect((await chat(third)).model).toBe('sim-gpt');

    const audit = await auditFor(id);
    expect(audit.map((entry) => [entry.action, (entry.details as { grace_seconds?: number }).grace_seconds])).toEqual([
      ['key.create', undefined],
      ['key.rotate', 3600],
      ['key.rotate', 0],
    ]);
    const auditText = JSON.stringify(audit);
    for (const secret of [first, second, third]) {
      expect(auditText).not.toContain(secret);
      expect(auditText).not.toContain(hashApiKey(secret));
    }
  });

  it('records when a key was last used, off the request path', async () => {
    const { id, key } = await createKey({ name: 'used' });
    const before = Date.now();
    await chat(key);
    await gateway.services.keyUses.flush();
    const read = await call('GET', `/admin/keys/${id}`);
    const lastUsed = Date.parse(read.body.last_used_at as string);
    expect(lastUsed).toBeGreaterThanOrEqual(before - 1);
    expect(lastUsed).toBeLessThanOrEqual(Date.now());
    expect((await gateway.services.storage.keys.findById(id))?.lastUsedAt?.getTime()).toBe(lastUsed);
  });

  it('makes admin keys that may call every endpoint and model, and pages the audit log', async () => {
    const { id, key } = await createKey({ name: 'second operator', admin: true });
    const created = await call('GET', `/admin/keys/${id}`);
    expect(created.body).toMatchObject({ admin: true, scopes: { endpoints: null, models: null } });
    expect((await chat(key, 'sim-claude')).model).toBe('sim-claude');
    expect((await call('GET', '/admin/keys', { key })).status).toBe(200);

    const first = await call('GET', '/admin/audit?limit=1');
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    const [newest] = first.body.data as Record<string, unknown>[];
    expect(newest).toMatchObject({ object: 'audit_entry', action: 'key.create', target_id: id, actor_key_id: adminId, details: { name: 'second operator', admin: true } });
    expect(Number.isNaN(Date.parse(newest?.at as string))).toBe(false);
    const next = await call('GET', `/admin/audit?limit=2&before=${newest?.id as string}`);
    expect((next.body.data as Record<string, unknown>[]).map((entry) => entry.id)).not.toContain(newest?.id);
    expect(next.body.data).toHaveLength(2);
  });
});

describe('admin keys API refusals', () => {
  const someId = 'key_AAAAAAAAAAAA';
  const endpoints: readonly [string, string, unknown?][] = [
    ['GET', '/admin/keys'],
    ['POST', '/admin/keys', { name: 'x' }],
    ['GET', `/admin/keys/${someId}`],
    ['PATCH', `/admin/keys/${someId}`, { name: 'x' }],
    ['DELETE', `/admin/keys/${someId}`],
    ['POST', `/admin/keys/${someId}/rotate`, {}],
    ['GET', '/admin/audit'],
  ];

  it.each(endpoints)('%s %s answers 401 without a key or with a wrong one, 403 to a key that is not an admin key', async (method, route, body) => {
    const without = await call(method, route, { body, key: null });
    expect(without.status).toBe(401);
    expect(errorOf(without).type).toBe('authentication_error');
    expect((await call(method, route, { body, key: mintApiKeySecret() })).status).toBe(401);
    const user = await call(method, route, { body, key: userSecret });
    expect(user.status).toBe(403);
    expect(errorOf(user).type).toBe('permission_error');
    expect(user.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    [{ name: 'x', colour: 'red' }, 'colour'],
    [{ name: 'x', scopes: { models: ['sim'], tools: [] } }, 'scopes.tools'],
    [{}, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'x', admin: 'yes' }, 'admin'],
    [{ name: 'x', scopes: { models: 'sim' } }, 'scopes.models'],
    [{ name: 'x', scopes: { models: ['no-such-model'] } }, 'scopes.models'],
    [{ name: 'x', scopes: { endpoints: ['everything'] } }, 'scopes.endpoints'],
    [{ name: 'x', admin: true, scopes: { models: ['sim'] } }, 'scopes'],
    [{ name: 'x', budget_usd: 10 }, 'budget_usd'],
    [{ name: 'x', daily_budget_usd: 'ten' }, 'daily_budget_usd'],
    [{ name: 'x', monthly_budget_usd: '0.0000000001' }, 'monthly_budget_usd'],
    [{ name: 'x', rpm: 0 }, 'rpm'],
    [{ name: 'x', tpm: '100' }, 'tpm'],
    [{ name: 'x', concurrency: 2.5 }, 'concurrency'],
    [{ name: 'x', expires_at: '2020-01-01' }, 'expires_at'],
    [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at'],
  ])('POST /admin/keys refuses %j with a 400 naming %s', async (body, param) => {
    const answer = await call('POST', '/admin/keys', { body });
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('refuses a body that is not a JSON object, or not JSON', async () => {
    const notJson = await call('POST', '/admin/keys', { rawBody: '{"name":', contentType: 'application/json' });
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson).type).toBe('invalid_request_error');
    expect((await call('POST', '/admin/keys', { body: ['name'] })).status).toBe(400);
    expect((await call('POST', '/admin/keys', { rawBody: 'name=x', contentType: 'application/x-www-form-urlencoded' })).status).toBe(415);
  });

  it('refuses bad PATCH bodies naming the field, and leaves the key as it was', async () => {
    const { id } = await createKey({ name: 'steady', rpm: 10 });
    for (const [body, param] of [
      [{ admin: true }, 'admin'],
      [{ hash: 'abc' }, 'hash'],
      [{ rpm: -1 }, 'rpm'],
      [{ scopes: 'all' }, 'scopes'],
      [{ budget_usd: 1.5 }, 'budget_usd'],
      [{ expires_at: 12 }, 'expires_at'],
    ] as const) {
      const answer = await call('PATCH', `/admin/keys/${id}`, { body });
      expect(answer.status).toBe(400);
      expect(errorOf(answer)).toMatchObject({ type: 'invalid_request_error', param });
    }
    expect((await call('GET', `/admin/keys/${id}`)).body).toMatchObject({ name: 'steady', rpm: 10 });
    expect((await auditFor(id)).map((entry) => entry.action)).toEqual(['key.create']);
  });

  it('refuses bad rotation bodies', async () => {
    const { id } = await createKey({ name: 'rotation target' });
    for (const [body, param] of [
      [{ grace_seconds: -1 }, 'grace_seconds'],
      [{ grace_seconds: '60' }, 'grace_seconds'],
      [{ grace_seconds: 1.5 }, 'grace_seconds'],
      [{ grace: 60 }, 'grace'],
    ] as const) {
      const answer = await call('POST', `/admin/keys/${id}/rotate`, { body });
      expect(answer.status).toBe(400);
      expect(errorOf(answer).param).toBe(param);
    }
    expect((await auditFor(id)).map((entry) => entry.action)).toEqual(['key.create']);
  });

  it('answers 404 for an unknown or malformed key id', async () => {
    for (const id of [someId, 'not-a-key', 'key_%2F..']) {
      for (const [method, suffix, body] of [['GET', ''], ['PATCH', '', { name: 'x' }], ['DELETE', ''], ['POST', '/rotate', {}]] as const) {
        const answer = await call(method, `/admin/keys/${id}${suffix}`, { body });
        expect(answer.status).toBe(404);
        expect(errorOf(answer).type).toBe('invalid_request_error');
      }
    }
  });

  it('refuses bad query values on the lists', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'before=nope', 'after=audit_x']) {
      const answer = await call('GET', `/admin/audit?${query}`);
      expect(answer.status).toBe(400);
      expect(errorOf(answer).param).toBe(query.split('=')[0]);
    }
    for (const query of ['limit=0', 'limit=x', 'after=key_unknown', 'order=asc']) {
      const answer = await call('GET', `/admin/keys?${query}`);
      expect(answer.status).toBe(400);
      expect(errorOf(answer).param).toBe(query.split('=')[0]);
    }
  });

  it('answers 405 with allow for other methods', async () => {
    const put = await call('PUT', '/admin/keys');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect((await call('POST', `/admin/keys/${someId}`)).headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect((await call('GET', `/admin/keys/${someId}/rotate`)).status).toBe(405);
    expect((await call('DELETE', '/admin/audit')).status).toBe(405);
  });
});

describe('admin key changes across instances', () => {
  let directory: string;
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'switchyard-admin-keys-'));
    const database = { url: `sqlite:${path.join(directory, 'gateway.db')}` };
    first = await startTestGateway({ ...defaultConfig({}), database });
    second = await startTestGateway({ ...defaultConfig({}), database });
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    rmSync(directory, { recursive: true, force: true });
  });

  it('a key revoked on one instance is refused by another within 5 seconds', async () => {
    const operator = await insertAdminKey(first.services.storage);
    const created = await fetch(`${first.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shared' }),
    });
    const { id, key } = (await created.json()) as { id: string; key: string };
    const onSecond = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: key, maxRetries: 0 });
    const ask = () => statusOf(onSecond.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'x' }] }));
    expect(await ask()).toBe(200);
    const revokedAt = Date.now();
    expect((await fetch(`${first.url}/admin/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${operator.secret}` } })).status).toBe(200);
    let status = await ask();
    while (status === 200 && Date.now() - revokedAt < 6_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = await ask();
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(5_500);
  }, 15_000);
});
