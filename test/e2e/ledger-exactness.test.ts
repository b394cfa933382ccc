import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';
import { askedId, meteredReply, startScriptedUpstream, type AskedUsage, type ScriptedUpstream } from '../support/scripted-upstream/index.js';

/**
 * 1,000 concurrent calls of every kind the gateway meters, checked against a recomputation that
 * shares no code with it: usage as the upstream reported it (the test chose every figure), prices
 * as /v1/models/pricing publishes them, and the documented rules — disjoint buckets, rounding half
 * up to the nano-dollar per entry, and for a stream the client left before any usage arrived,
 * the usage the upstream reported after it left (status 499).
 */
let gateway: TestGateway;
let upstream: ScriptedUpstream;
let secret: string;
let keyId: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: meteredReply });
  const base = defaultConfig({});
  const simImage = (base.models as Record<string, unknown>[]).find((model) => model.id === 'sim-image')!;
  gateway = await startTestGateway({
    ...base,
    providers: { 'up-openai': { type: 'openai', base_url: `${upstream.url}/v1` }, 'up-anthropic': { type: 'anthropic', base_url: upstream.url } },
    models: [
      { id: 'm-gpt', routes: [{ provider: 'up-openai', model: 'up' }], price: { input_per_mtok: '1.25', output_per_mtok: '10.00', cache_read_per_mtok: '0.0375', effective_from: '2026-01-01' } },
      { id: 'm-claude', routes: [{ provider: 'up-anthropic', model: 'up' }], price: { input_per_mtok: '3.00', output_per_mtok: '15.00', cache_read_per_mtok: '0.30', cache_write_per_mtok: '3.75', effective_from: '2026-01-01' } },
      { ...simImage, id: 'm-image', legacy_aliases: [], routes: [{ provider: 'up-openai', model: 'up-image' }] },
    ],
  });
  ({ secret, id: keyId } = await insertLimitedKey(gateway.services.storage, {}));
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

type Kind = 'chat' | 'chat-stream' | 'chat-abort' | 'responses' | 'responses-stream' | 'responses-abort' | 'messages' | 'messages-stream' | 'image';
const mix: [Kind, number][] = [
  ['chat', 200], ['chat-stream', 150], ['chat-abort', 50],
  ['responses', 150], ['responses-stream', 100], ['responses-abort', 50],
  ['messages', 150], ['messages-stream', 100], ['image', 50],
];

interface Planned {
  readonly id: string;
  readonly kind: Kind;
  readonly path: string;
  readonly body: string;
  readonly usage: AskedUsage;
  readonly image?: { readonly n: number; readonly quality: string; readonly size: string };
}

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number): (limit: number) => number {
  let state = seed;
  return (limit) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % limit;
  };
}

function plan(): Planned[] {
  const next = generator(7);
  const planned: Planned[] = [];
  for (const [kind, count] of mix) {
    for (let index = 0; index < count; index += 1) {
      const id = `${kind}-${index}`;
      const a = 1 + next(5_000);
      const c = 1 + next(2_000);
      const usage = { a, b: next(a + 1), c, d: kind.startsWith('messages') ? next(3_000) : next(c + 1) };
      const text = `id=${id} usage=${usage.a},${usage.b},${usage.c},${usage.d}${kind.endsWith('abort') ? ' slow' : ''} ${'pad '.repeat(next(50))}`;
      const stream = kind.endsWith('stream') || kind.endsWith('abort');
      if (kind.startsWith('chat')) planned.push({ id, kind, usage, path: '/v1/chat/completions', body: JSON.stringify({ model: 'm-gpt', stream, messages: [{ role: 'user', content: text }] }) });
      if (kind.startsWith('responses')) planned.push({ id, kind, usage, path: '/v1/responses', body: JSON.stringify({ model: 'm-gpt', stream, store: false, input: text }) });
      if (kind.startsWith('messages')) planned.push({ id, kind, usage, path: '/v1/messages', body: JSON.stringify({ model: 'm-claude', stream, max_tokens: 4_096, messages: [{ role: 'user', content: text }] }) });
      if (kind === 'image') {
        const image = { n: 1 + next(3), quality: ['low', 'medium', 'high'][next(3)]!, size: ['1024x1024', '1536x1024', '1024x1536'][next(3)]! };
        planned.push({ id, kind, usage, image, path: '/v1/images/generations', body: JSON.stringify({ model: 'm-image', prompt: text, ...image }) });
      }
    }
  }
  return planned;
}

/** Sends one call; a stream is read to its end, or left after its first bytes. Resolves to the request id. */
async function send(call: Planned): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}${call.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: call.body,
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const requestId = response.headers.get('x-request-id')!;
  if (call.kind.endsWith('abort')) {
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
  } else {
    await response.arrayBuffer();
  }
  return requestId;
}

/** A decimal USD string scaled to an integer number of `10^-digits` USD. */
function scaled(decimal: string, digits: number): bigint {
  const [whole, fraction = ''] = decimal.split('.');
  return BigInt(whole! + fraction.padEnd(digits, '0').slice(0, digits));
}

interface PublishedPrices {
  readonly text: Map<string, Record<string, bigint>>;
  readonly images: Map<string, bigint>;
}

/** Atto-USD per token (USD per million tokens × 10^12) and atto-USD per image, from the published list. */
async function publishedPrices(): Promise<PublishedPrices> {
  const list = (await (await fetch(`${gateway.url}/v1/models/pricing`)).json()) as { data: { model: string; text?: Record<string, string>; image?: { tiers: { quality: string; size: string; usd_per_image: string }[] } }[] };
  const text = new Map<string, Record<string, bigint>>();
  const images = new Map<string, bigint>();
  for (const model of list.data) {
    if (model.text !== undefined) text.set(model.model, Object.fromEntries(Object.entries(model.text).map(([field, value]) => [field, scaled(value, 12)])));
    for (const tier of model.image?.tiers ?? []) images.set(`${model.model}/${tier.quality}/${tier.size}`, scaled(tier.usd_per_image, 18));
  }
  return { text, images };
}

/** The recomputed entry: buckets and cost in nano-USD, rounded half up. */
function expected(call: Planned, prices: PublishedPrices): { buckets: number[]; estimated: boolean; costNano: bigint; status: number } {
  const { a, b, c, d } = call.usage;
  let buckets: number[];
  let atto: bigint;
  if (call.kind === 'image') {
    const { n, quality, size } = call.image!;
    return { buckets: [0, 0, 0, 0, 0], estimated: false, costNano: roundToNano(BigInt(n) * prices.images.get(`m-image/${quality}/${size}`)!), status: 200 };
  }
  const rates = prices.text.get(call.kind.startsWith('messages') ? 'm-claude' : 'm-gpt')!;
  if (call.kind.startsWith('messages')) {
    buckets = [a, b, d, c, 0];
    atto = BigInt(a) * rates.input_usd_per_mtok! + BigInt(b) * rates.cache_read_usd_per_mtok! + BigInt(d) * rates.cache_write_usd_per_mtok! + BigInt(c) * rates.output_usd_per_mtok!;
  } else {
    // OpenAI counts cached tokens within the prompt and reasoning within the completion; the ledger's buckets are disjoint.
    buckets = [a - b, b, 0, c - d, d];
    atto = BigInt(a - b) * rates.input_usd_per_mtok! + BigInt(b) * rates.cache_read_usd_per_mtok! + BigInt(c - d) * rates.output_usd_per_mtok! + BigInt(d) * rates.reasoning_usd_per_mtok!;
  }
  // A client that left is charged the usage the upstream reports after it left (within the wait for it).
  return { buckets, estimated: false, costNano: roundToNano(atto), status: call.kind.endsWith('abort') ? 499 : 200 };
}

function roundToNano(atto: bigint): bigint {
  return (atto + 500_000_000n) / 1_000_000_000n;
}

describe('the ledger under 1,000 concurrent mixed calls', () => {
  it('holds one entry per call, and its total equals the recomputation to the nano-dollar', async () => {
    const calls = plan();
    expect(calls).toHaveLength(1_000);
    const requestIds = await Promise.all(calls.map((call) => send(call)));
    expect(new Set(requestIds).size).toBe(1_000);
    const prices = await publishedPrices();

    let entries: LedgerEntry[] = [];
    for (let waited = 0; waited < 100; waited += 1) {
      await gateway.services.ledger.flush();
      entries = await gateway.services.storage.ledger.list({ keyId });
      if (entries.length >= 1_000) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(entries).toHaveLength(1_000);
    const byRequest = new Map(entries.map((entry) => [entry.requestId, entry]));
    let recomputedTotal = 0n;
    const mismatches: string[] = [];
    calls.forEach((call, index) => {
      const entry = byRequest.get(requestIds[index]!);
      const want = expected(call, prices);
      recomputedTotal += want.costNano;
      const got = entry === undefined ? undefined : [entry.inputUncached, entry.cacheRead, entry.cacheWrite, entry.output, entry.reasoning];
      if (entry === undefined || JSON.stringify(got) !== JSON.stringify(want.buckets) || entry.costNanoUsd !== want.costNano || entry.usageEstimated !== want.estimated || entry.status !== want.status) {
        mismatches.push(`${call.id}: got ${JSON.stringify({ got, cost: entry?.costNanoUsd.toString(), estimated: entry?.usageEstimated, status: entry?.status })}, want ${JSON.stringify({ ...want, costNano: want.costNano.toString() })}`);
      }
      if (call.kind === 'image') expect(entry?.images).toBe(call.image!.n);
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
    const ledgerTotal = entries.reduce((sum, entry) => sum + entry.costNanoUsd, 0n);
    expect(ledgerTotal).toBe(recomputedTotal);
    // The running total a budget reads agrees with the entries to the last unit too.
    expect((await gateway.services.storage.ledger.spend(keyId, new Date())).total).toBe(ledgerTotal);
    // Every call that reached the upstream is one of the 1,000, and none was sent twice.
    expect(new Set(upstream.requests.map(askedId)).size).toBe(1_000);
  }, 120_000);
});
