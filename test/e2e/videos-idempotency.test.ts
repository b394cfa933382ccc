import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI, { UnprocessableEntityError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { insertApiKey } from '../support/insert-api-key.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { quickVideoSettings } from '../support/video-jobs.js';

/**
 * `Idempotency-Key` on `POST /v1/videos` with the semantics of the IETF idempotency-key draft: the
 * same request again gets the job of the first, from any instance on the same database; the same
 * key with a different request is a 422 `idempotency_key_reused`, makes no job and charges nothing.
 */

let directory: string;
let first: TestGateway;
let second: TestGateway;
let secret: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'switchyard-idempotency-'));
  const config = {
    ...defaultConfig({}),
    database: { url: `sqlite:${path.join(directory, 'switchyard.db')}` },
    videos: quickVideoSettings,
    content: { dir: path.join(directory, 'content') },
  };
  first = await startTestGateway(config);
  second = await startTestGateway(config);
  secret = await insertApiKey(first.services.storage, 'videos');
});
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  rmSync(directory, { recursive: true, force: true });
});

function clientOf(gateway: TestGateway): OpenAI {
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
}

async function jobCount(): Promise<number> {
  return (await first.services.storage.videoJobs.listAll({ limit: 500 })).jobs.length;
}

const body = { model: 'sim-video', prompt: 'a harbour at dawn [video-ms:400]', seconds: '4', size: '1280x720' } as const;

describe('an Idempotency-Key sent again', () => {
  it('with the same request, from another instance, gets the first job', async () => {
    const created = await clientOf(first).videos.create(body, { headers: { 'idempotency-key': 'same-request' } });
    const again = await clientOf(second).videos.create(body, { headers: { 'idempotency-key': 'same-request' } });
    expect(again.id).toBe(created.id);
  });

  it('with the same fields sent as JSON rather than the SDK\u2019s form, is the same request', async () => {
    const created = await clientOf(first).videos.create(body, { headers: { 'idempotency-key': 'json-or-form' } });
    const asJson = await fetch(`${second.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': 'json-or-form' },
      body: JSON.stringify({ ...body, seconds: 4 }),
    });
    expect(asJson.status).toBe(200);
    expect(((await asJson.json()) as { id: string }).id).toBe(created.id);
  });

  it.each([
    ['another prompt', { prompt: 'something else entirely' }],
    ['another length', { seconds: '8' }],
    ['another size', { size: '720x1280' }],
  ] as const)('with %s, from another instance, is refused with 422 idempotency_key_reused and makes no job', async (_name, change) => {
    const key = `reused-${_name}`;
    const created = await clientOf(first).videos.create(body, { headers: { 'idempotency-key': key } });
    const before = await jobCount();
    await second.services.ledger.flush();
    const ledgerBefore = (await second.services.storage.ledger.list({ limit: 10_000 })).length;
    const refused = await clientOf(second).videos.create({ ...body, ...change }, { headers: { 'idempotency-key': key } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnprocessableEntityError);
    const error = (refused as UnprocessableEntityError).error as { code: string; param: string | null; message: string };
    expect(error.code).toBe('idempotency_key_reused');
    expect(error.message).toContain(key);
    expect(await jobCount()).toBe(before);
    await second.services.ledger.flush();
    expect((await second.services.storage.ledger.list({ limit: 10_000 })).length).toBe(ledgerBefore);
    // The first job is untouched and still answers a true retry.
    expect((await clientOf(second).videos.create(body, { headers: { 'idempotency-key': key } })).id).toBe(created.id);
  });
});
