import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { faultReply, startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';

/**
 * Fallback before the first byte, bounded retry-after, and each route's circuit breaker: opened
 * by consecutive failures, skipped during its cool-down, half-open with one trial, closed by a
 * trial that works; visible in /admin/routes and /metrics.
 */

let flaky: ScriptedUpstream;
let backup: ScriptedUpstream;
let gateway: TestGateway;
let openai: OpenAI;
let adminSecret: string;
const cooldownMs = 1_000;

beforeAll(async () => {
  flaky = await startScriptedUpstream({ reply: faultReply({ kind: 'ok' }) });
  backup = await startScriptedUpstream({ reply: faultReply({ kind: 'ok' }) });
  gateway = await startTestGateway({
    routing: { attempts_per_route: 1, backoff_ms: 5, timeout_ms: 5_000, max_retry_after_ms: 500, circuit_breaker: { consecutive_failures: 2, cooldown_ms: cooldownMs } },
    providers: {
      flaky: { type: 'openai-compatible', base_url: `${flaky.url}/v1` },
      lonely: { type: 'anthropic', base_url: flaky.url, api_key: 'k' },
      backup: { type: 'openai-compatible', base_url: `${backup.url}/v1` },
    },
    models: [
      { id: 'with-backup', routes: [{ provider: 'flaky', model: 'm' }, { provider: 'backup', model: 'm' }] },
      { id: 'alone', routes: [{ provider: 'lonely', model: 'claude' }] },
    ],
  });
  adminSecret = (await insertKey(gateway.services.storage, 'admin', true)).secret;
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: adminSecret, maxRetries: 0 });
  // The first non-generation request loads the HTTP framework; the cool-downs below are short.
  await routeStates();
});

afterAll(async () => {
  await gateway.close();
  await flaky.close();
  await backup.close();
});

const ask = (model = 'with-backup') => openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

async function routeStates(): Promise<Record<string, string>> {
  const response = await fetch(`${gateway.url}/admin/routes`, { headers: { authorization: `Bearer ${adminSecret}` } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { model: string; routes: { provider: string; state: string }[] }[] };
  return Object.fromEntries(body.data.flatMap((model) => model.routes.map((route) => [`${model.model}/${route.provider}`, route.state])));
}

async function gauge(provider: string, state: string): Promise<number | undefined> {
  const text = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${adminSecret}` } })).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`switchyard_route_circuit_state{provider="${provider}",`) && candidate.includes(`state="${state}"`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

async function newestEntry(): Promise<LedgerEntry> {
  await gateway.services.ledger.flush();
  return (await gateway.services.storage.ledger.list({ limit: 1 }))[0] as LedgerEntry;
}

describe('fallback before the first byte', () => {
  it('moves to the next route at once when retry-after is longer than max_retry_after_ms', async () => {
    flaky.script(faultReply({ kind: 'rate-limited', retryAfterSeconds: 20 }));
    const startedAt = Date.now();
    const flakyBefore = flaky.requests.length;
    const answer = await ask();
    expect(answer.choices[0]?.message.content).toBeTruthy();
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(flaky.requests.length).toBe(flakyBefore + 1);
    expect((await newestEntry()).provider).toBe('backup');
  });

  it('falls back on garbage instead of an event stream', async () => {
    flaky.script(faultReply({ kind: 'garbage-sse' }));
    const stream = await openai.chat.completions.create({ model: 'with-backup', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
  });
});

describe('a route that keeps failing', () => {
  it('opens after consecutive failures, is skipped during its cool-down and shows as open', async () => {
    await new Promise((resolve) => setTimeout(resolve, cooldownMs));
    flaky.reply(faultReply({ kind: 'server-error', status: 500 }));
    await ask();
    await ask();
    expect((await routeStates())['with-backup/flaky']).toBe('open');
    expect(await gauge('flaky', 'open')).toBe(1);
    expect(await gauge('flaky', 'closed')).toBe(0);
    const flakyBefore = flaky.requests.length;
    const startedAt = Date.now();
    await ask();
    expect(flaky.requests.length).toBe(flakyBefore);
    expect(Date.now() - startedAt).toBeLessThan(cooldownMs);
    expect((await newestEntry()).provider).toBe('backup');
  });

  it('lets one trial through after the cool-down, and opens again when it fails', async () => {
    await new Promise((resolve) => setTimeout(resolve, cooldownMs + 50));
    const flakyBefore = flaky.requests.length;
    await ask();
    expect(flaky.requests.length).toBe(flakyBefore + 1);
    await ask();
    expect(flaky.requests.length).toBe(flakyBefore + 1);
    expect((await routeStates())['with-backup/flaky']).toBe('open');
  });

  it('sends only one trial while half-open, and closes when it works', async () => {
    await new Promise((resolve) => setTimeout(resolve, cooldownMs + 50));
    flaky.reply(faultReply({ kind: 'ok' }));
    flaky.script(faultReply({ kind: 'slow-first-byte', delayMs: 300 }));
    const flakyBefore = flaky.requests.length;
    const trial = ask();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await routeStates())['with-backup/flaky']).toBe('half_open');
    await ask();
    expect(flaky.requests.length).toBe(flakyBefore + 1);
    await trial;
    expect((await routeStates())['with-backup/flaky']).toBe('closed');
    expect(await gauge('flaky', 'closed')).toBe(1);
    await ask();
    expect(flaky.requests.length).toBe(flakyBefore + 2);
  });

  it('answers 503 with retry-after in the client shape when every route is open', async () => {
    flaky.reply(faultReply({ kind: 'reset-before-first-byte' }));
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: adminSecret, maxRetries: 0 });
    const send = () => anthropic.messages.create({ model: 'alone', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(((await send()) as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    expect(((await send()) as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    const before = flaky.requests.length;
    const refused = (await send()) as InstanceType<typeof Anthropic.APIError>;
    expect(refused.status).toBe(503);
    expect(refused.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(Number(refused.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(flaky.requests.length).toBe(before);
    expect((await newestEntry()).status).toBe(503);
    flaky.reply(faultReply({ kind: 'ok' }));
    await new Promise((resolve) => setTimeout(resolve, cooldownMs + 50));
    expect((await anthropic.messages.create({ model: 'alone', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] })).content.length).toBeGreaterThan(0);
  });
});
