import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { readFixture } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * Bodies built to break the gateway rather than to ask it anything: JSON nested thousands deep (it
 * used to exhaust the stack and answer 500) and a top-level member given twice (JSON.parse keeps
 * the last `model`, while the body passed through still carries the first for the upstream to
 * read). Each gets a 400 in its endpoint's own error shape; no upstream sees it and nothing is charged.
 */

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let secret: string;
let adminSecret: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.reply({ body: readFixture('openai/chat/openai-text.json') });
  gateway = await startTestGateway({
    providers: { upstream: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-key' } },
    models: [
      { id: 'cheap', routes: [{ provider: 'upstream', model: 'cheap-upstream' }] },
      { id: 'dear', routes: [{ provider: 'upstream', model: 'dear-upstream' }] },
    ],
  });
  secret = (await insertKey(gateway.services.storage, 'client', false)).secret;
  adminSecret = (await insertKey(gateway.services.storage, 'admin', true)).secret;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
});

const depth = 5_000;

/**
 * An object nested `depth` deep, as JSON text: `{"a":{"a":…{}}}`. Written as text because no SDK
 * can send it (JSON.stringify itself runs out of stack on such a value), yet any client can.
 */
const deepObject = `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;

async function expectNothingSentOrCharged(): Promise<void> {
  expect(upstream.requests).toHaveLength(0);
  await gateway.services.ledger.flush();
  expect(await gateway.services.storage.ledger.list({ limit: 10 })).toHaveLength(0);
}

const post = (path: string, body: string, headers: Record<string, string> = {}, key = secret) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body });

describe('a body nested thousands deep', () => {
  it('is refused with 400 in the OpenAI shape on chat and Responses', async () => {
    const bodies: [string, string][] = [
      ['/v1/chat/completions', `{"model":"cheap","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deepObject}}}]}`],
      ['/v1/responses', `{"model":"cheap","input":"hi","tools":[{"type":"function","name":"f","parameters":${deepObject}}]}`],
    ];
    for (const [path, body] of bodies) {
      const response = await post(path, body);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_json' } });
    }
    await expectNothingSentOrCharged();
  });

  it('is refused with 400 in the Messages shape, on messages and count_tokens', async () => {
    const body = `{"model":"cheap","max_tokens":16,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","input_schema":${deepObject}}]}`;
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const response = await post(path, body, { 'anthropic-version': '2023-06-01' });
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    }
    await expectNothingSentOrCharged();
  });

  it('is refused with 400 on the images, videos and admin endpoints', async () => {
    const body = `{"prompt":"a cat","name":"k","metadata":${deepObject}}`;
    const targets: [string, string][] = [
      ['/v1/images/generations', secret],
      ['/v1/videos', secret],
      ['/admin/keys', adminSecret],
    ];
    for (const [path, key] of targets) {
      const response = await post(path, body, {}, key);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_json' } });
    }
    await expectNothingSentOrCharged();
  });
});

describe('a body naming a top-level member twice', () => {
  it('is refused with 400 naming the member when it is "model", however the second is spelled', async () => {
    for (const second of ['"model"', '"mod\\u0065l"']) {
      const body = `{"model":"dear-upstream","messages":[{"role":"user","content":"hi"}],${second}:"cheap"}`;
      const response = await post('/v1/chat/completions', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_request', param: 'model' } });
    }
    await expectNothingSentOrCharged();
  });

  it('is refused in the Messages shape on /v1/messages', async () => {
    const response = await post('/v1/messages', '{"model":"cheap","max_tokens":16,"stream":false,"messages":[{"role":"user","content":"hi"}],"stream":true}', { 'anthropic-version': '2023-06-01' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining("'stream'") } });
    await expectNothingSentOrCharged();
  });

  it('still lets the same name through inside nested objects and strings', async () => {
    const body = '{"model":"cheap","messages":[{"role":"user","content":"\\"model\\":\\"dear\\""}],"metadata":{"model":"x"}}';
    const response = await post('/v1/chat/completions', body);
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});
