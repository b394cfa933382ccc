import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultReply, startScriptedUpstream, type Fault, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';

/**
 * Every upstream fault, for every client family, on a passed-through route and on a translated
 * (Gemini) one: the status or in-stream error the real SDK sees, exactly one ledger entry per call,
 * and a gateway that answers the next call normally.
 */

type Family = 'chat' | 'responses' | 'messages';
type Outcome = { readonly status: number; readonly retryAfter: string | null; readonly message: string };

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

const timeoutMs = 250;

beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: faultReply({ kind: 'ok' }) });
  gateway = await startTestGateway({
    routing: {
      attempts_per_route: 2,
      backoff_ms: 5,
      timeout_ms: timeoutMs,
      max_retry_after_ms: 1_000,
      max_answer_bytes: 2 * 1024 * 1024,
      circuit_breaker: { enabled: false },
    },
    providers: {
      chat: { type: 'openai-compatible', base_url: `${upstream.url}/v1` },
      openai: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'k' },
      anthropic: { type: 'anthropic', base_url: upstream.url, api_key: 'k' },
      gemini: { type: 'gemini', base_url: upstream.url, api_key: 'k' },
    },
    models: [
      { id: 'pass-chat', routes: [{ provider: 'chat', model: 'gpt-4.1-nano' }] },
      { id: 'pass-responses', routes: [{ provider: 'openai', model: 'gpt-4.1-nano' }] },
      { id: 'pass-messages', routes: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }] },
      { id: 'translated', routes: [{ provider: 'gemini', model: 'gemini-2.5-flash' }] },
    ],
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'any', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const passModel: Record<Family, string> = { chat: 'pass-chat', responses: 'pass-responses', messages: 'pass-messages' };

/** One call through the family's SDK; a stream is read to its end. Errors become an outcome. */
async function call(family: Family, model: string, stream: boolean): Promise<Outcome> {
  try {
    if (family === 'chat') {
      if (!stream) await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
      else for await (const chunk of await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] })) void chunk;
    } else if (family === 'responses') {
      if (!stream) await openai.responses.create({ model, input: 'hi', store: false });
      else for await (const event of await openai.responses.create({ model, input: 'hi', store: false, stream: true })) if (event.type === 'error' || event.type === 'response.failed') throw new Error(`in-stream ${event.type}`);
    } else if (!stream) {
      await anthropic.messages.create({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    } else {
      await anthropic.messages.stream({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    }
    return { status: 200, retryAfter: null, message: '' };
  } catch (error) {
    // An error event inside a stream reaches the SDKs as an APIError without a status.
    if ((error instanceof OpenAI.APIError || error instanceof Anthropic.APIError) && error.status !== undefined) {
      const status = error.status;
      const headers = error.headers as Headers | Record<string, string> | undefined;
      const retryAfter = headers === undefined ? null : headers instanceof Headers ? headers.get('retry-after') : (headers['retry-after'] ?? null);
      return { status, retryAfter, message: error.message };
    }
    return { status: 200, retryAfter: null, message: `in-stream: ${(error as Error).message}` };
  }
}

async function ledgerEntries(): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ limit: 10_000 });
}

/** Runs a call with the upstream scripted; checks one new ledger entry, and a sound next call. */
async function faulted(family: Family, model: string, stream: boolean, faults: Fault[]): Promise<{ outcome: Outcome; entry: LedgerEntry; upstreamCalls: number }> {
  const before = (await ledgerEntries()).length;
  const requestsBefore = upstream.requests.length;
  upstream.script(...faults.map(faultReply));
  const outcome = await call(family, model, stream);
  const upstreamCalls = upstream.requests.length - requestsBefore;
  let entries = await ledgerEntries();
  for (let waited = 0; entries.length < before + 1 && waited < 3_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    entries = await ledgerEntries();
  }
  expect(entries.length).toBe(before + 1);
  const entry = entries[0] as LedgerEntry;
  upstream.script();
  expect(await call(family, model, stream)).toEqual({ status: 200, retryAfter: null, message: '' });
  return { outcome, entry, upstreamCalls };
}

const retried = (fault: Fault): Fault[] => [fault, fault];

interface BeforeFirstByteCase {
  readonly name: string;
  readonly faults: Fault[];
  readonly status: number;
  readonly upstreamCalls: number;
}

const beforeFirstByte: BeforeFirstByteCase[] = [
  { name: 'a reset before the first byte', faults: retried({ kind: 'reset-before-first-byte' }), status: 502, upstreamCalls: 2 },
  { name: 'a first byte slower than the time-out', faults: retried({ kind: 'slow-first-byte', delayMs: 1_500 }), status: 504, upstreamCalls: 2 },
  { name: 'a 500', faults: retried({ kind: 'server-error', status: 500 }), status: 502, upstreamCalls: 2 },
  { name: 'a 503', faults: retried({ kind: 'server-error', status: 503 }), status: 503, upstreamCalls: 2 },
  { name: 'a 429 whose retry-after is longer than the gateway waits', faults: [{ kind: 'rate-limited', retryAfterSeconds: 30 }], status: 429, upstreamCalls: 1 },
  { name: 'a 200 whose JSON is cut short', faults: retried({ kind: 'malformed-json' }), status: 502, upstreamCalls: 2 },
  { name: 'a 200 with an error body', faults: retried({ kind: 'error-body-200' }), status: 502, upstreamCalls: 2 },
  { name: 'an answer larger than max_answer_bytes', faults: [{ kind: 'enormous', bytes: 8 * 1024 * 1024 }], status: 502, upstreamCalls: 1 },
];

const families: Family[] = ['chat', 'responses', 'messages'];
const routeKinds = ['passed through', 'translated'] as const;

describe.each(families)('a %s client', (family) => {
  describe.each(routeKinds)('on a %s route', (routeKind) => {
    const model = routeKind === 'translated' ? 'translated' : passModel[family];

    it.each(beforeFirstByte)('gets its mapped error for $name, after the retries, metered once at no cost', async ({ faults, status, upstreamCalls }) => {
      const { outcome, entry, upstreamCalls: calls } = await faulted(family, model, false, faults);
      expect(outcome.status).toBe(status);
      if (status === 429) expect(outcome.retryAfter).toBe('30');
      expect(outcome.message).not.toContain('127.0.0.1');
      expect(calls).toBe(upstreamCalls);
      expect(entry.status).toBe(status);
      expect(entry.costNanoUsd).toBe(0n);
    });

    it.each([
      { name: 'a 503', faults: retried({ kind: 'server-error', status: 503 }), status: 503 },
      { name: 'garbage instead of an event stream', faults: retried({ kind: 'garbage-sse' }), status: 502 },
      { name: 'a 200 with an error body instead of a stream', faults: retried({ kind: 'error-body-200' }), status: 502 },
    ])('gets an HTTP error, not a broken stream, for $name before the first event', async ({ faults, status }) => {
      const { outcome, entry } = await faulted(family, model, true, faults);
      expect(outcome.status).toBe(status);
      expect(entry.status).toBe(status);
      expect(entry.costNanoUsd).toBe(0n);
    });

    it.each([
      { name: 'a reset after the first byte', fault: { kind: 'reset-after-first-byte' } as Fault },
      { name: 'a stream that stalls', fault: { kind: 'stall' } as Fault },
      { name: 'a stream cut before its terminator', fault: { kind: 'truncated-sse' } as Fault },
      { name: 'a stream larger than max_answer_bytes', fault: { kind: 'enormous', bytes: 8 * 1024 * 1024 } as Fault },
    ])('gets an in-stream error for $name, metered once', async ({ fault }) => {
      const { outcome, entry, upstreamCalls } = await faulted(family, model, true, [fault]);
      expect(outcome.status).toBe(200);
      expect(outcome.message).toMatch(/^in-stream/);
      expect(upstreamCalls).toBe(1);
      expect(entry.status).toBe(499);
    });
  });
});

describe('retry-after from an upstream', () => {
  it('is waited out when it is short, then the same route answers', async () => {
    const startedAt = Date.now();
    const { outcome, entry, upstreamCalls } = await faulted('chat', 'pass-chat', false, [{ kind: 'rate-limited', retryAfterSeconds: 1 }, { kind: 'ok' }]);
    expect(outcome.status).toBe(200);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_000);
    expect(upstreamCalls).toBe(2);
    expect(entry.status).toBe(200);
  });
});
