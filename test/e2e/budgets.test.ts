import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';
import { pollUntilDone, quickVideoSettings } from '../support/video-jobs.js';

let gateway: TestGateway;
let upstream: ScriptedUpstream;

const price = { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' };

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  const config = defaultConfig({}) as { providers: Record<string, unknown>; models: unknown[] };
  gateway = await startTestGateway({
    ...config,
    videos: quickVideoSettings,
    providers: { ...config.providers, fake: { type: 'openai', base_url: `${upstream.url}/v1` }, 'fake-anthropic': { type: 'anthropic', base_url: upstream.url } },
    models: [
      ...config.models,
      { id: 'fake-gpt', routes: [{ provider: 'fake', model: 'gpt-x' }], price },
      { id: 'fake-claude', routes: [{ provider: 'fake-anthropic', model: 'claude-x' }], price },
    ],
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

/** Nano-USD: the sim models cost $1 per million input tokens (1,000 nano each) and $2 per million output tokens. */
const inputNano = 1_000n;
const outputNano = 2_000n;

/** The documented worst case of a text call: every body byte an input token, plus its output cap. */
function worstCase(body: string, maxTokens: number): bigint {
  return BigInt(Buffer.byteLength(body)) * inputNano + BigInt(maxTokens) * outputNano;
}

async function ledgerOf(keyId: string) {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

function spent(entries: readonly { costNanoUsd: bigint }[]): bigint {
  return entries.reduce((sum, entry) => sum + entry.costNanoUsd, 0n);
}

function post(secret: string, body: string, path = '/v1/chat/completions'): Promise<Response> {
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body });
}

describe('a budget without room for the worst case', () => {
  it('is refused with 402 in the chat, responses and messages shapes, sending and charging nothing', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 1_000n });
    const before = upstream.requests.length;
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const chat = await openai.chat.completions.create({ model: 'fake-gpt', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(chat).toBeInstanceOf(OpenAI.APIError);
    expect((chat as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((chat as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ type: 'insufficient_quota', code: 'budget_exhausted' });
    const responses = await openai.responses.create({ model: 'fake-gpt', max_output_tokens: 16, input: 'hi' }).catch((error: unknown) => error);
    expect((responses as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((responses as InstanceType<typeof OpenAI.APIError>).message).toContain('budget of $0.000001');
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const messages = await anthropic.messages.create({ model: 'fake-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(messages).toBeInstanceOf(Anthropic.APIError);
    expect((messages as InstanceType<typeof Anthropic.APIError>).status).toBe(402);
    expect((messages as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    expect(upstream.requests.length).toBe(before);
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('names the daily or monthly budget that is short', async () => {
    const daily = await insertLimitedKey(gateway.services.storage, { dailyBudgetNanoUsd: 5_000n, budgetNanoUsd: 10n ** 12n });
    const refused = await post(daily.secret, JSON.stringify({ model: 'sim-gpt', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }));
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('daily budget of $0.000005');
    const monthly = await insertLimitedKey(gateway.services.storage, { monthlyBudgetNanoUsd: 5_000n });
    const refusedMonthly = await post(monthly.secret, JSON.stringify({ model: 'sim-gpt', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }));
    expect(((await refusedMonthly.json()) as { error: { message: string } }).error.message).toContain('monthly budget');
  });

  it('reserves an uncapped call at the documented bound of 128,000 output tokens, never at zero', async () => {
    const body = JSON.stringify({ model: 'sim-gpt', messages: [{ role: 'user', content: 'x' }] });
    const justShort = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: worstCase(body, 128_000) - 1n });
    expect((await post(justShort.secret, body)).status).toBe(402);
    const enough = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: worstCase(body, 128_000) });
    expect((await post(enough.secret, body)).status).toBe(200);
  });
});

describe('concurrent calls against a nearly spent budget', () => {
  it('admit only as many as the budget has worst cases for, and spend never passes it', async () => {
    const body = JSON.stringify({ model: 'sim-gpt', max_tokens: 100, messages: [{ role: 'user', content: '[delay:1000] [words:3] go' }] });
    const worst = worstCase(body, 100);
    const budget = worst * 5n + worst / 2n;
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: budget });
    // The key is looked up once before the burst, so all 40 reach admission at once.
    expect((await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(secret, body)));
    const statuses = answers.map((answer) => answer.status);
    // All 40 arrive while the first five are still waiting on the upstream: five worst cases fit.
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(35);
    const afterBurst = await ledgerOf(id);
    expect(afterBurst).toHaveLength(5);
    expect(spent(afterBurst)).toBeLessThanOrEqual(budget);
    // Settled at their real cost (far below the worst case), the calls leave room for more, one
    // at a time, until no worst case fits: spend ends within one worst case of the budget, never over.
    const quick = JSON.stringify({ model: 'sim-gpt', max_tokens: 100, messages: [{ role: 'user', content: '[words:3] go' }] });
    let status = 200;
    for (let calls = 0; status === 200 && calls < 300; calls += 1) status = (await post(secret, quick)).status;
    expect(status).toBe(402);
    const total = spent(await ledgerOf(id));
    expect(total).toBeLessThanOrEqual(budget);
    expect(budget - total).toBeLessThan(worstCase(quick, 100));
    const stored = await gateway.services.storage.ledger.spend(id, new Date());
    expect(stored).toEqual({ total, month: total, day: total });
  });
});

describe('settling', () => {
  it('puts the cost of a non-streamed answer in x-request-cost-usd, equal to its ledger entry, in all three formats', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 10n });
    const chat = await post(secret, JSON.stringify({ model: 'sim-gpt', max_tokens: 50, messages: [{ role: 'user', content: 'price me' }] }));
    const responses = await post(secret, JSON.stringify({ model: 'sim-gpt', max_output_tokens: 50, input: 'price me' }), '/v1/responses');
    const messages = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': secret, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'sim-claude', max_tokens: 50, messages: [{ role: 'user', content: 'price me' }] }),
    });
    const stream = await post(secret, JSON.stringify({ model: 'sim-gpt', stream: true, messages: [{ role: 'user', content: 'price me' }] }));
    await stream.text();
    expect(stream.headers.get('x-request-cost-usd')).toBeNull();
    const entries = await ledgerOf(id);
    for (const answer of [chat, responses, messages]) {
      const entry = entries.find((candidate) => candidate.requestId === answer.headers.get('x-request-id'));
      expect(entry).toBeDefined();
      expect(entry!.costNanoUsd).toBeGreaterThan(0n);
      expect(answer.headers.get('x-request-cost-usd')).toBe(decimalUsd(entry!.costNanoUsd));
    }
  });

  it('records a call no upstream answered at 0 and releases its reservation', async () => {
    upstream.reply({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { message: 'boom', type: 'server_error' } }) });
    const body = JSON.stringify({ model: 'fake-gpt', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] });
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: worstCase(body, 100) + worstCase(body, 100) / 2n });
    expect((await post(secret, body)).status).toBe(502);
    expect((await post(secret, body)).status).toBe(502);
    const entries = await ledgerOf(id);
    expect(entries.map((entry) => [entry.status, entry.costNanoUsd])).toEqual([
      [502, 0n],
      [502, 0n],
    ]);
  });

  it('reserves a video job at its seconds and settles it to what the finished job costs', async () => {
    const seconds = 4;
    const cost = 400_000_000n; // 4 s at $0.10 a second
    const short = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: cost - 1n });
    const shortClient = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: short.secret, maxRetries: 0 });
    const refused = await shortClient.videos.create({ model: 'sim-video', prompt: 'a cat [video-ms:200]', seconds: String(seconds) as '4' }).catch((error: unknown) => error);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((await shortClient.videos.list()).data).toEqual([]);

    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: cost + cost / 2n });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const job = await client.videos.create({ model: 'sim-video', prompt: 'a cat [video-ms:200]', seconds: '4' });
    // While the first job runs, its reservation leaves no room for a second.
    const second = await client.videos.create({ model: 'sim-video', prompt: 'another [video-ms:200]', seconds: '4' }).catch((error: unknown) => error);
    expect((second as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    const done = await pollUntilDone(client, job.id);
    expect(done.video.status).toBe('completed');
    const entries = await ledgerOf(id);
    expect(entries.map((entry) => entry.costNanoUsd)).toEqual([cost]);
    // Settled: the budget has cost/2 left, still short of another job's worst case.
    const third = await client.videos.create({ model: 'sim-video', prompt: 'third [video-ms:200]', seconds: '4' }).catch((error: unknown) => error);
    expect((third as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
  });

  it('reserves an image call at its tier times n', async () => {
    const tier = 10_000_000n; // low/1024x1024 at $0.01
    const { secret } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: tier * 2n });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const tooMany = await client.images.generate({ model: 'sim-image', prompt: 'cats', quality: 'low', size: '1024x1024', n: 3 }).catch((error: unknown) => error);
    expect((tooMany as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    const fits = await client.images.generate({ model: 'sim-image', prompt: 'cats', quality: 'low', size: '1024x1024', n: 2 }).withResponse();
    expect(fits.response.headers.get('x-request-cost-usd')).toBe('0.02');
  });
});

function decimalUsd(nano: bigint): string {
  const whole = nano / 1_000_000_000n;
  const fraction = (nano % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction === '' ? `${whole}` : `${whole}.${fraction}`;
}
