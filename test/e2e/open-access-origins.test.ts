import Anthropic from '@anthropic-ai/sdk';
import { request } from 'node:http';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { startSimulatorUpstream, type SimulatorUpstream } from '../support/scripted-upstream/index.js';

/**
 * Open access takes a keyless call only from this machine's own clients. A web page the operator
 * happens to visit can make the browser send requests to the gateway: a DNS-rebinding page reaches
 * it under its own name (a `Host` that is not loopback), any other page sends a cross-site
 * `Origin` / `Sec-Fetch-Site`. Those get 403 in the client's own error shape, before anything goes
 * upstream or is charged. The requests here carry exactly the headers a browser sends in those
 * cases; `open-access-browser.test.ts` makes a real browser send them.
 */

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** One POST with exactly these headers, `Host` included (fetch would replace it). */
function post(gateway: TestGateway, path: string, body: object, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: answer.statusCode ?? 0, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
      });
    });
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });
}

const openaiRefusal = { error: { type: 'permission_error', code: 'permission_denied' } };
const anthropicRefusal = { type: 'error', error: { type: 'permission_error' } };

/** Every kind of generation call, with the error shape its clients read. */
const calls = [
  { name: 'chat', path: '/v1/chat/completions', body: { model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] }, refusal: openaiRefusal },
  { name: 'responses', path: '/v1/responses', body: { model: 'sim-gpt', input: 'hi' }, refusal: openaiRefusal },
  { name: 'messages', path: '/v1/messages', body: { model: 'sim-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }, refusal: anthropicRefusal },
  { name: 'images', path: '/v1/images/generations', body: { model: 'sim-image', prompt: 'a lighthouse', size: '1024x1024', quality: 'low' }, refusal: openaiRefusal },
  { name: 'videos', path: '/v1/videos', body: { model: 'sim-video', prompt: 'a lighthouse', seconds: '4', size: '1280x720' }, refusal: openaiRefusal },
] as const;

let relay: SimulatorUpstream;
let gateway: TestGateway;
let port: number;

beforeAll(async () => {
  relay = await startSimulatorUpstream();
});
afterAll(async () => {
  await relay.close();
});

interface Tally {
  readonly entries: number;
  readonly jobs: number;
}

/** What has been charged and submitted so far. */
async function record(): Promise<Tally> {
  await gateway.services.ledger.flush();
  const entries = (await gateway.services.storage.ledger.list({ limit: 1_000 })).length;
  const jobs = (await gateway.services.storage.videoJobs.listAll({ limit: 1_000 })).jobs.length;
  return { entries, jobs };
}

/** Runs `attempt`, then checks that it reached no upstream, charged nothing and made no job. */
async function expectNothingSentOrCharged(attempt: () => Promise<void>): Promise<void> {
  const before = await record();
  relay.requests.length = 0;
  await attempt();
  expect(relay.requests).toEqual([]);
  expect(await record()).toEqual(before);
}

function expectEveryCallRefused(headers: { readonly [name: string]: string }): Promise<void> {
  return expectNothingSentOrCharged(async () => {
    for (const call of calls) {
      const answer = await post(gateway, call.path, call.body, headers);
      expect(answer.status, `${call.name} with ${JSON.stringify(headers)}`).toBe(403);
      expect(answer.body, call.name).toMatchObject(call.refusal);
    }
  });
}

describe('open access (no key exists yet) and where a call comes from', () => {
  beforeAll(async () => {
    gateway = await startTestGateway(relay.config());
    port = gateway.port;
  });
  afterAll(async () => {
    await gateway.close();
  });
  afterEach(() => {
    relay.requests.length = 0;
  });

  it('refuses a Host that is not loopback (a DNS-rebinding page) in every client format, sending nothing upstream and charging nothing', async () => {
    await expectEveryCallRefused({ host: `rebound.example:${port}`, origin: `http://rebound.example:${port}`, 'sec-fetch-site': 'same-origin' });
    await expectEveryCallRefused({ host: `rebound.example:${port}` });
    await expectEveryCallRefused({ host: `10.0.0.5:${port}` });
    await expectEveryCallRefused({ host: '127.0.0.1.rebound.example' });
    await expectEveryCallRefused({ host: 'localhost.rebound.example' });
  });

  it('refuses a cross-site Origin, and Sec-Fetch-Site: cross-site, with a loopback Host', async () => {
    await expectEveryCallRefused({ host: `127.0.0.1:${port}`, origin: 'https://attacker.example' });
    await expectEveryCallRefused({ host: `127.0.0.1:${port}`, origin: 'null' });
    await expectEveryCallRefused({ host: `localhost:${port}`, 'sec-fetch-site': 'cross-site' });
    await expectEveryCallRefused({ host: `localhost:${port}`, origin: `http://localhost:${port}`, 'sec-fetch-site': 'cross-site' });
  });

  it('says why in the refusal, so the operator knows to create a key', async () => {
    const answer = await post(gateway, '/v1/chat/completions', calls[0].body, { host: `rebound.example:${port}` });
    expect((answer.body as { error: { message: string } }).error.message).toMatch(/loopback/);
    const crossSite = await post(gateway, '/v1/chat/completions', calls[0].body, { host: `127.0.0.1:${port}`, origin: 'https://attacker.example' });
    expect((crossSite.body as { error: { message: string } }).error.message).toMatch(/another site/);
  });

  it('accepts every loopback Host (localhost, 127.x, [::1], with or without a port) from a client with no Origin', async () => {
    for (const host of [`localhost:${port}`, 'localhost', `LOCALHOST:${port}`, `127.0.0.1:${port}`, '127.45.6.7', `[::1]:${port}`, '[::1]']) {
      const answer = await post(gateway, '/v1/chat/completions', calls[0].body, { host });
      expect(answer.status, host).toBe(200);
    }
    expect(relay.requests).toHaveLength(7);
  });

  it('accepts a page of its own origin (the console) and a loopback page on another port', async () => {
    for (const headers of [
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
      { host: `localhost:${port}`, origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site' },
    ]) {
      expect((await post(gateway, '/v1/chat/completions', calls[0].body, headers)).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('serves the SDKs as a command-line client uses them (no Origin, no key)', async () => {
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'from the terminal' }] });
    expect(completion.choices[0]?.message.content).toContain('from the terminal');
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'any', maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'sim-claude', max_tokens: 100, messages: [{ role: 'user', content: 'from a script' }] });
    expect(message.content[0]?.type === 'text' ? message.content[0].text : '').toContain('from a script');
  });

  it('gives the SDKs their own permission error for a cross-site Origin', async () => {
    await expectNothingSentOrCharged(async () => {
      const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0, defaultHeaders: { origin: 'https://attacker.example' } });
      const refused = await openai.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'any', maxRetries: 0, defaultHeaders: { origin: 'https://attacker.example' } });
    const refusedMessage = await anthropic.messages.create({ model: 'sim-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refusedMessage).toBeInstanceOf(Anthropic.PermissionDeniedError);
    });
  });
});

describe("open_access: always (the operator opened the gateway on purpose)", () => {
  beforeAll(async () => {
    gateway = await startTestGateway({ ...relay.config(), server: { open_access: 'always' } });
    port = gateway.port;
  });
  afterAll(async () => {
    await gateway.close();
  });
  afterEach(() => {
    relay.requests.length = 0;
  });

  it('accepts a keyless call under any Host name (behind a proxy) from a client with no Origin', async () => {
    expect((await post(gateway, '/v1/chat/completions', calls[0].body, { host: 'ai.example.com' })).status).toBe(200);
    expect((await post(gateway, '/v1/chat/completions', calls[0].body, { host: 'ai.example.com', origin: 'https://ai.example.com' })).status).toBe(200);
    expect(relay.requests).toHaveLength(2);
  });

  it('still refuses a keyless call from another site', async () => {
    await expectEveryCallRefused({ host: 'ai.example.com', origin: 'https://attacker.example' });
    await expectEveryCallRefused({ host: 'ai.example.com', 'sec-fetch-site': 'cross-site' });
  });
});
