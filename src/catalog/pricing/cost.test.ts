import { describe, expect, it } from 'vitest';
import { totalInputTokens, totalOutputTokens, type Usage } from '../../ir/usage.js';
import { isRecord } from '../../json/json-value.js';
import { usageFromMessagesUsage } from '../../wire/messages/messages-usage.js';
import { usageFromChatPayload } from '../../wire/chat/chat-usage.js';
import { geminiUsageMetadataSchema } from '../../providers/gemini/wire/generate-content-response.js';
import { usageFromGemini } from '../../providers/gemini/wire/gemini-usage.js';
import { usageFromResponsesUsage } from '../../wire/responses/responses-usage.js';
import { costNanoUsd, UnpricedUsageError } from './cost.js';
import { parseUsdToPico, withMarkup } from './decimal-usd.js';
import type { PriceEntry, TokenPrices, TokenRate } from './model-price.js';
import { priceAt, scheduleOf } from './price-schedule.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

// Every expectation is hand-computed: tokens × USD per million tokens is micro-USD, so a row's
// sum of tokens × rate, times 1000, is its cost in nano-USD.

interface Rates {
  readonly input: string;
  readonly output: string;
  readonly cacheRead: string;
  readonly cacheWrite?: string;
  readonly cacheWriteOneHour?: string;
}

/** Token prices from USD strings; reasoning at the output rate, missing cache writes at the input rate. */
function textPrice(rates: Rates, longContext?: { readonly above: number; readonly rates: Rates }, effectiveFrom = '2026-01-01'): PriceEntry {
  const rate = (pick: (of: Rates) => string): TokenRate => ({
    base: parseUsdToPico(pick(rates)),
    tiers: longContext === undefined ? [] : [{ aboveInputTokens: longContext.above, rate: parseUsdToPico(pick(longContext.rates)) }],
  });
  const cacheWrite = (of: Rates): string => of.cacheWrite ?? of.input;
  return {
    effectiveFrom,
    text: {
      input: rate((of) => of.input),
      output: rate((of) => of.output),
      cacheRead: rate((of) => of.cacheRead),
      cacheWrite: rate(cacheWrite),
      cacheWriteOneHour: rate((of) => of.cacheWriteOneHour ?? cacheWrite(of)),
      reasoning: rate((of) => of.output),
    },
  };
}

// Prices for the table (the vendors' list prices of these models when they were recorded).
const sonnet45 = textPrice(
  { input: '3.00', output: '15.00', cacheRead: '0.30', cacheWrite: '3.75', cacheWriteOneHour: '6.00' },
  { above: 200_000, rates: { input: '6.00', output: '22.50', cacheRead: '0.60', cacheWrite: '7.50', cacheWriteOneHour: '12.00' } },
);
const gpt41Nano = textPrice({ input: '0.10', output: '0.40', cacheRead: '0.025' });
const gpt5Nano = textPrice({ input: '0.05', output: '0.40', cacheRead: '0.005' });
const gpt5Mini = textPrice({ input: '0.25', output: '2.00', cacheRead: '0.025' });
const deepseekReasoner = textPrice({ input: '0.28', output: '0.42', cacheRead: '0.028' });
const grok3Mini = textPrice({ input: '0.30', output: '0.50', cacheRead: '0.075' });
const gemini3Pro = textPrice({ input: '2.00', output: '12.00', cacheRead: '0.20' }, { above: 200_000, rates: { input: '4.00', output: '18.00', cacheRead: '0.40' } });

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function count(value: unknown, key: string): number {
  const figure = field(value, key);
  if (typeof figure !== 'number') throw new Error(`no ${key}`);
  return figure;
}

function anthropicUsage(file: string): { usage: Usage; reportedTotal: number } {
  const raw = field(readJsonFixture(`anthropic/messages/${file}`), 'usage');
  const reportedTotal = ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'output_tokens'].reduce((sum, key) => sum + count(raw, key), 0);
  return { usage: usageFromMessagesUsage(raw), reportedTotal };
}

function chatUsage(payload: unknown): { usage: Usage; reportedTotal: number } {
  const usage = usageFromChatPayload(payload);
  if (usage === undefined) throw new Error('no chat usage');
  return { usage, reportedTotal: count(field(payload, 'usage'), 'total_tokens') };
}

function responsesUsage(file: string): { usage: Usage; reportedTotal: number } {
  const raw = field(readJsonFixture(`openai/responses/${file}`), 'usage');
  const usage = usageFromResponsesUsage(raw);
  if (usage === undefined) throw new Error('no responses usage');
  return { usage, reportedTotal: count(raw, 'total_tokens') };
}

function geminiUsage(body: unknown): { usage: Usage; reportedTotal: number } {
  const metadata = geminiUsageMetadataSchema.parse(field(body, 'usageMetadata'));
  return { usage: usageFromGemini(metadata), reportedTotal: count(metadata, 'totalTokenCount') };
}

/** The usage chunk of a recorded chat stream (the last chunk with a usage object). */
function chatStreamUsagePayload(file: string): unknown {
  const chunks = fixtureChunks(file).map((line) => JSON.parse(line) as unknown);
  return chunks.filter((chunk) => isRecord(field(chunk, 'usage'))).at(-1);
}

interface Row {
  readonly name: string;
  readonly recorded: { readonly usage: Usage; readonly reportedTotal: number };
  readonly price: PriceEntry;
  readonly nanoUsd: bigint;
}

const recordedRows: readonly Row[] = [
  {
    name: 'Anthropic, cache figures outside input_tokens (anthropic-text.json)',
    recorded: anthropicUsage('anthropic-text.json'),
    price: sonnet45,
    // 12 × 3.00 + 29 × 15.00 = 36 + 435 = 471 µUSD
    nanoUsd: 471_000n,
  },
  {
    name: 'Anthropic, thinking_tokens inside output_tokens (anthropic-claude-opus-5-reasoning-high.1.json)',
    recorded: anthropicUsage('anthropic-claude-opus-5-reasoning-high.1.json'),
    price: sonnet45,
    // 51 × 3.00 + (1699 − 139) × 15.00 + 139 × 15.00 = 153 + 23 400 + 2 085 = 25 638 µUSD (1699 output tokens, once)
    nanoUsd: 25_638_000n,
  },
  {
    name: 'OpenAI chat, gpt-4.1-nano (openai-text.json)',
    recorded: chatUsage(readJsonFixture('openai/chat/openai-text.json')),
    price: gpt41Nano,
    // 16 × 0.10 + 363 × 0.40 = 1.6 + 145.2 = 146.8 µUSD
    nanoUsd: 146_800n,
  },
  {
    name: 'OpenAI chat stream, reasoning_tokens inside completion_tokens (azure-model-router.1.chunks.txt)',
    recorded: chatUsage(chatStreamUsagePayload('openai/chat/azure-model-router.1.chunks.txt')),
    price: gpt5Nano,
    // 15 × 0.05 + (78 − 64) × 0.40 + 64 × 0.40 = 0.75 + 5.6 + 25.6 = 31.95 µUSD
    nanoUsd: 31_950n,
  },
  {
    name: 'chat, cached_tokens inside prompt_tokens, reasoning inside completion (deepseek-tool-call.json)',
    recorded: chatUsage(readJsonFixture('openai-compatible/chat/deepseek-tool-call.json')),
    price: deepseekReasoner,
    // (339 − 320) × 0.28 + 320 × 0.028 + (92 − 48) × 0.42 + 48 × 0.42 = 5.32 + 8.96 + 18.48 + 20.16 = 52.92 µUSD
    nanoUsd: 52_920n,
  },
  {
    name: 'chat, xAI reasoning beside completion_tokens (xai-tool-call.json)',
    recorded: chatUsage(readJsonFixture('openai-compatible/chat/xai-tool-call.json')),
    price: grok3Mini,
    // (307 − 244) × 0.30 + 244 × 0.075 + 26 × 0.50 + 255 × 0.50 = 18.9 + 18.3 + 13 + 127.5 = 177.7 µUSD,
    // which is the vendor's own figure in the body: cost_in_usd_ticks 1 777 000 × 1e-10 USD.
    nanoUsd: 177_700n,
  },
  {
    name: 'Responses, input_tokens_details.cached_tokens (openai-web-search-tool.1.json)',
    recorded: responsesUsage('openai-web-search-tool.1.json'),
    price: gpt5Mini,
    // (19681 − 3712) × 0.25 + 3712 × 0.025 + (3773 − 3136) × 2.00 + 3136 × 2.00
    //   = 3 992.25 + 92.8 + 1 274 + 6 272 = 11 631.05 µUSD
    nanoUsd: 11_631_050n,
  },
  {
    name: 'Responses, reasoning inside output_tokens (openai-reasoning-encrypted-content.1.json)',
    recorded: responsesUsage('openai-reasoning-encrypted-content.1.json'),
    price: gpt5Mini,
    // 865 × 0.25 + (163 − 128) × 2.00 + 128 × 2.00 = 216.25 + 70 + 256 = 542.25 µUSD
    nanoUsd: 542_250n,
  },
  {
    name: 'Gemini, thoughtsTokenCount outside candidatesTokenCount (google-text.json)',
    recorded: geminiUsage(readJsonFixture('google/generate-content/google-text.json')),
    price: gemini3Pro,
    // 9 × 2.00 + 28 × 12.00 + 244 × 12.00 = 18 + 336 + 2 928 = 3 282 µUSD
    nanoUsd: 3_282_000n,
  },
  {
    name: 'Gemini, a tool call with long thinking (google-tool-call-gemini3.json)',
    recorded: geminiUsage(readJsonFixture('google/generate-content/google-tool-call-gemini3.json')),
    price: gemini3Pro,
    // 29 × 2.00 + 15 × 12.00 + 1801 × 12.00 = 58 + 180 + 21 612 = 21 850 µUSD
    nanoUsd: 21_850_000n,
  },
];

describe('cost of recorded usage', () => {
  it.each(recordedRows)('$name', ({ recorded, price, nanoUsd }) => {
    // Disjoint buckets: together they are exactly the tokens the upstream reported, none twice.
    expect(totalInputTokens(recorded.usage) + totalOutputTokens(recorded.usage)).toBe(recorded.reportedTotal);
    expect(costNanoUsd(price, { tokens: recorded.usage })).toBe(nanoUsd);
  });
});

// Payloads in the recorded shapes with cache figures no recording has (all recorded cache figures are 0).
const tokenRows: readonly { readonly name: string; readonly usage: Usage; readonly price: PriceEntry; readonly nanoUsd: bigint }[] = [
  {
    name: 'Anthropic cache reads and writes, part of the writes kept one hour',
    usage: usageFromMessagesUsage({
      input_tokens: 10,
      cache_read_input_tokens: 3000,
      cache_creation_input_tokens: 1500,
      cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1000 },
      output_tokens: 40,
    }),
    price: sonnet45,
    // 10 × 3.00 + 3000 × 0.30 + 500 × 3.75 + 1000 × 6.00 + 40 × 15.00 = 30 + 900 + 1 875 + 6 000 + 600 = 9 405 µUSD
    nanoUsd: 9_405_000n,
  },
  {
    name: 'Anthropic cache writes without the one-hour breakdown, all at the five-minute price',
    usage: usageFromMessagesUsage({ input_tokens: 10, cache_creation_input_tokens: 1500, output_tokens: 40 }),
    price: sonnet45,
    // 10 × 3.00 + 1500 × 3.75 + 40 × 15.00 = 30 + 5 625 + 600 = 6 255 µUSD
    nanoUsd: 6_255_000n,
  },
  {
    name: 'Gemini cachedContentTokenCount inside a prompt past the long-context threshold',
    usage: usageFromGemini({ promptTokenCount: 250_000, cachedContentTokenCount: 200_000, candidatesTokenCount: 1000, thoughtsTokenCount: 500 }),
    price: gemini3Pro,
    // 250 000 input tokens > 200 000, so every bucket at the long-context rate:
    // 50 000 × 4.00 + 200 000 × 0.40 + 1000 × 18.00 + 500 × 18.00 = 200 000 + 80 000 + 18 000 + 9 000 = 307 000 µUSD
    nanoUsd: 307_000_000n,
  },
  {
    name: 'long context: exactly at the threshold is the base rate (cache reads count as input)',
    usage: { inputUncached: 150_000, cacheRead: 50_000, cacheWrite: 0, output: 1000, reasoning: 0 },
    price: sonnet45,
    // 200 000 input tokens, not above 200 000: 150 000 × 3.00 + 50 000 × 0.30 + 1000 × 15.00 = 450 000 + 15 000 + 15 000 = 480 000 µUSD
    nanoUsd: 480_000_000n,
  },
  {
    name: 'long context: one token past the threshold switches every bucket',
    usage: { inputUncached: 150_001, cacheRead: 50_000, cacheWrite: 0, output: 1000, reasoning: 0 },
    price: sonnet45,
    // 150 001 × 6.00 + 50 000 × 0.60 + 1000 × 22.50 = 900 006 + 30 000 + 22 500 = 952 506 µUSD
    nanoUsd: 952_506_000n,
  },
];

describe('cost of token buckets', () => {
  it.each(tokenRows)('$name', ({ usage, price, nanoUsd }) => {
    expect(costNanoUsd(price, { tokens: usage })).toBe(nanoUsd);
  });

  it('costs nothing for a model without a price (published as unpriced, not as free)', () => {
    expect(costNanoUsd(undefined, { tokens: anthropicUsage('anthropic-text.json').usage })).toBe(0n);
  });
});

/** Every rate of a token price scaled by a markup percentage. */
function markedUp(entry: PriceEntry, markupPercent: string): PriceEntry {
  const mark = (rate: TokenRate): TokenRate => ({
    base: withMarkup(rate.base, markupPercent),
    tiers: rate.tiers.map((tier) => ({ ...tier, rate: withMarkup(tier.rate, markupPercent) })),
  });
  const text: TokenPrices | undefined = entry.text;
  if (text === undefined) return entry;
  return {
    ...entry,
    text: {
      input: mark(text.input),
      output: mark(text.output),
      cacheRead: mark(text.cacheRead),
      cacheWrite: mark(text.cacheWrite),
      cacheWriteOneHour: mark(text.cacheWriteOneHour),
      reasoning: mark(text.reasoning),
    },
  };
}

describe('markup and rounding', () => {
  it('sells at the marked-up rates', () => {
    // 12.5 %: 3.00 → 3.375 and 15.00 → 16.875; 12 × 3.375 + 29 × 16.875 = 40.5 + 489.375 = 529.875 µUSD
    const { usage } = anthropicUsage('anthropic-text.json');
    expect(costNanoUsd(markedUp(sonnet45, '12.5'), { tokens: usage })).toBe(529_875n);
  });

  it('rounds half up once, on the sum, not per bucket', () => {
    const tiny = textPrice({ input: '0.0004', output: '0.0007', cacheRead: '0.0004' });
    const usage: Usage = { inputUncached: 1, cacheRead: 1, cacheWrite: 0, output: 1, reasoning: 0 };
    // 0.4 + 0.4 + 0.7 = 1.5 nUSD → 2 (rounding each bucket first would give 0 + 0 + 1 = 1)
    expect(costNanoUsd(tiny, { tokens: usage })).toBe(2n);
    const justBelow = textPrice({ input: '0.0004', output: '0.000699', cacheRead: '0.0004' });
    // 0.4 + 0.4 + 0.699 = 1.499 nUSD → 1
    expect(costNanoUsd(justBelow, { tokens: usage })).toBe(1n);
  });
});

describe('prices switching at an effective date', () => {
  const cheaper = textPrice({ input: '2.00', output: '10.00', cacheRead: '0.20' }, undefined, '2027-01-01');
  const schedule = scheduleOf([cheaper, sonnet45], 'config');
  const { usage } = anthropicUsage('anthropic-text.json');

  it('bills a call the instant before midnight UTC at the old price and at midnight at the new', () => {
    // old: 12 × 3.00 + 29 × 15.00 = 471 µUSD; new: 12 × 2.00 + 29 × 10.00 = 24 + 290 = 314 µUSD
    expect(costNanoUsd(priceAt(schedule, new Date('2026-12-31T23:59:59.999Z')), { tokens: usage })).toBe(471_000n);
    expect(costNanoUsd(priceAt(schedule, new Date('2027-01-01T00:00:00.000Z')), { tokens: usage })).toBe(314_000n);
  });
});

describe('cost of images and video', () => {
  const imageModel: PriceEntry = {
    effectiveFrom: '2026-01-01',
    image: {
      tiers: [
        { quality: 'low', size: '1024x1024', perImage: parseUsdToPico('0.011') },
        { quality: 'medium', size: '1024x1024', perImage: parseUsdToPico('0.042') },
        { quality: 'high', size: '1024x1024', perImage: parseUsdToPico('0.167') },
        { quality: 'high', size: '1024x1536', perImage: parseUsdToPico('0.25') },
      ],
    },
  };

  it('bills the tier price times the count', () => {
    // 3 × 0.011 = 0.033 USD
    expect(costNanoUsd(imageModel, { images: [{ quality: 'low', size: '1024x1024', count: 3 }] })).toBe(33_000_000n);
  });

  it('bills a call that asked for auto at the tier the upstream reports it produced', () => {
    // Recorded answer to a call without a quality: it reports quality "high", size "1024x1024".
    const body = readJsonFixture('openai/images/openai-image-edit.json');
    const reported = { quality: String(field(body, 'quality')), size: String(field(body, 'size')) };
    const data = field(body, 'data');
    const count = Array.isArray(data) ? data.length : 0;
    // 1 × 0.167 USD
    expect(costNanoUsd(imageModel, { images: [{ ...reported, count }] })).toBe(167_000_000n);
  });

  it('adds up several tiers delivered by one call', () => {
    // 2 × 0.25 + 1 × 0.042 = 0.542 USD
    const images = [
      { quality: 'high', size: '1024x1536', count: 2 },
      { quality: 'medium', size: '1024x1024', count: 1 },
    ];
    expect(costNanoUsd(imageModel, { images })).toBe(542_000_000n);
  });

  it('refuses to bill a tier the price does not have, rather than as free', () => {
    expect(() => costNanoUsd(imageModel, { images: [{ quality: 'high', size: '1536x1024', count: 1 }] })).toThrow(UnpricedUsageError);
    expect(costNanoUsd(imageModel, { images: [{ quality: 'high', size: '1536x1024', count: 0 }] })).toBe(0n);
  });

  const videoModel: PriceEntry = {
    effectiveFrom: '2026-01-01',
    video: { variants: [{ mode: 'text-to-video', resolution: '720p', aspectRatio: '16:9', perSecond: parseUsdToPico('0.40') }] },
  };

  it('bills video seconds times the price per second of the variant', () => {
    // 8 × 0.40 = 3.20 USD
    const variant = { mode: 'text-to-video', resolution: '720p', aspectRatio: '16:9' };
    expect(costNanoUsd(videoModel, { video: { variant, seconds: 8 } })).toBe(3_200_000_000n);
  });

  it('refuses to bill a video variant the price does not have', () => {
    const variant = { mode: 'text-to-video', resolution: '1080p', aspectRatio: '16:9' };
    expect(() => costNanoUsd(videoModel, { video: { variant, seconds: 8 } })).toThrow(UnpricedUsageError);
  });
});
