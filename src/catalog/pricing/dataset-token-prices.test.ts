import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ModelInfo, Provider } from '@pydantic/genai-prices';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { datasetPriceEntries, picoFromDatasetNumber } from './dataset-price-entries.js';
import { type DatasetTokenPrices, loadDatasetTokenPrices } from './dataset-token-prices.js';
import { formatPicoUsd } from './decimal-usd.js';
import type { PriceEntry, TokenPrices, TokenRate } from './model-price.js';
import { priceAt, scheduleOf } from './price-schedule.js';

// Stubbed before the dataset is first imported (the first lookup below), so that a fetch during
// the import or any lookup fails the test run instead of reaching the network.
const fetchStub = vi.fn(() => {
  throw new Error('the price dataset must never fetch');
});
let prices: DatasetTokenPrices;

/** The entries of a model's dataset price. */
function lookup(kind: string, modelId: string): PriceEntry[] | undefined {
  return prices(kind, modelId)?.entries;
}

beforeAll(async () => {
  vi.stubGlobal('fetch', fetchStub);
  prices = await loadDatasetTokenPrices();
});

afterAll(() => {
  vi.unstubAllGlobals();
});

/** A rate as text: the base in USD per million tokens, then each tier as "above N: USD". */
function shown(rate: TokenRate): string[] {
  return [formatPicoUsd(rate.base), ...rate.tiers.map((tier) => `above ${tier.aboveInputTokens}: ${formatPicoUsd(tier.rate)}`)];
}

function shownPrices(prices: TokenPrices | undefined): Record<string, string[]> {
  if (prices === undefined) throw new Error('no token prices');
  return {
    input: shown(prices.input),
    output: shown(prices.output),
    cacheRead: shown(prices.cacheRead),
    cacheWrite: shown(prices.cacheWrite),
    cacheWriteOneHour: shown(prices.cacheWriteOneHour),
    reasoning: shown(prices.reasoning),
  };
}

function onlyEntry(entries: PriceEntry[] | undefined): PriceEntry {
  expect(entries).toHaveLength(1);
  const [entry] = entries ?? [];
  if (entry === undefined) throw new Error('no entry');
  return entry;
}

describe('default token prices from the pinned dataset', () => {
  it('never fetches while importing the dataset or looking prices up', () => {
    expect(lookup('anthropic', 'claude-sonnet-4-5')).toBeDefined();
    expect(lookup('openai', 'no-such-model')).toBeUndefined();
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('loads the dataset once', async () => {
    expect(await loadDatasetTokenPrices()).toBe(prices);
  });

  it('holds no network code in the package it imports', () => {
    const entry = createRequire(import.meta.url).resolve('@pydantic/genai-prices').replace(/index\.cjs$/, 'index.js');
    const source = readFileSync(entry, 'utf8');
    expect(source).not.toMatch(/\bfetch\b|XMLHttpRequest|node:https?|\bimport\s*\(|\brequire\s*\(/);
  });

  it('prices claude-sonnet-4-5 with its cache prices and its tier above 200k input tokens', () => {
    const entry = onlyEntry(lookup('anthropic', 'claude-sonnet-4-5-20250929'));
    expect(entry.effectiveFrom).toBe('1970-01-01');
    expect(shownPrices(entry.text)).toEqual({
      input: ['3.00', 'above 200000: 6.00'],
      output: ['15.00', 'above 200000: 22.50'],
      cacheRead: ['0.30', 'above 200000: 0.60'],
      cacheWrite: ['3.75', 'above 200000: 7.50'],
      cacheWriteOneHour: ['6.00', 'above 200000: 12.00'],
      reasoning: ['15.00', 'above 200000: 22.50'],
    });
    expect(entry.text?.input.base).toBe(3_000_000_000_000n);
  });

  it('prices gpt-4.1-mini, whose cache writes cost the input price (OpenAI has no cache-write charge)', () => {
    expect(shownPrices(onlyEntry(lookup('openai', 'gpt-4.1-mini')).text)).toEqual({
      input: ['0.40'],
      output: ['1.60'],
      cacheRead: ['0.10'],
      cacheWrite: ['0.40'],
      cacheWriteOneHour: ['0.40'],
      reasoning: ['1.60'],
    });
  });

  it('prices gemini-2.5-flash under the dataset provider google, thinking at the output price', () => {
    expect(shownPrices(onlyEntry(lookup('gemini', 'gemini-2.5-flash')).text)).toEqual({
      input: ['0.30'],
      output: ['2.50'],
      cacheRead: ['0.03'],
      cacheWrite: ['0.30'],
      cacheWriteOneHour: ['0.30'],
      reasoning: ['2.50'],
    });
  });

  it('turns start-date prices into entries with their effective dates', () => {
    const entries = lookup('openai', 'gpt-5.6-sol') ?? [];
    expect(entries.map((entry) => entry.effectiveFrom)).toEqual(['1970-01-01', '2026-08-21']);
    expect(entries.map((entry) => shownPrices(entry.text).input)).toEqual([
      ['5.00', 'above 271999: 10.00'],
      ['4.00', 'above 271999: 8.00'],
    ]);
    const schedule = scheduleOf(entries, 'vendor-dataset');
    expect(priceAt(schedule, new Date('2026-08-20T23:59:59.999Z'))?.text?.output.base).toBe(30_000_000_000_000n);
    expect(priceAt(schedule, new Date('2026-08-21T00:00:00.000Z'))?.text?.output.base).toBe(20_000_000_000_000n);
  });

  it('keeps the long-context tiers of an older price when a later one drops them', () => {
    const entries = lookup('anthropic', 'claude-sonnet-4-6') ?? [];
    expect(entries.map((entry) => [entry.effectiveFrom, shownPrices(entry.text).output])).toEqual([
      ['1970-01-01', ['15.00', 'above 200000: 22.50']],
      ['2026-03-13', ['15.00']],
    ]);
  });

  it('finds a model listed with a hyphenated date when asked with a compact one', () => {
    expect(lookup('openai', 'gpt-4.1-mini-20250414')).toEqual(lookup('openai', 'gpt-4.1-mini'));
    expect(lookup('openai', 'GPT-4.1-Mini')).toEqual(lookup('openai', 'gpt-4.1-mini'));
  });

  it('has no price for an unknown id, an OpenAI-compatible server, or a model of another provider', () => {
    expect(lookup('openai', 'gpt-unknown-9')).toBeUndefined();
    expect(lookup('openai-compatible', 'gpt-4.1-mini')).toBeUndefined();
    expect(lookup('gemini', 'gpt-4.1-mini')).toBeUndefined();
    expect(lookup('anthropic', 'gpt-4.1-mini')).toBeUndefined();
  });

  it('gives no token price to models the dataset lists as free or that bill image output per token', () => {
    expect(lookup('gemini', 'gemma-3')).toBeUndefined();
    expect(lookup('gemini', 'gemini-2.5-flash-image')).toBeUndefined();
  });

  it('converts every model of the vendors and clouds it prices into a valid schedule', async () => {
    const { findProvider } = await import('@pydantic/genai-prices');
    for (const providerId of ['openai', 'anthropic', 'google', 'aws', 'azure', 'deepseek', 'x-ai', 'moonshotai']) {
      const provider: Provider | undefined = findProvider({ providerId });
      expect(provider?.models.length).toBeGreaterThan(0);
      for (const model of provider?.models ?? []) {
        const entries = datasetPriceEntries(model);
        if (entries !== undefined) expect(() => scheduleOf(entries, 'vendor-dataset'), model.id).not.toThrow();
      }
    }
    expect(fetchStub).not.toHaveBeenCalled();
  });
});

describe('dataset price conversion', () => {
  const flat = { input_mtok: 1, output_mtok: 2 };

  it('reads the dataset numbers as the decimals they are written as', () => {
    expect(picoFromDatasetNumber(0.3)).toBe(300_000_000_000n);
    expect(picoFromDatasetNumber(3.125)).toBe(3_125_000_000_000n);
    expect(picoFromDatasetNumber(15)).toBe(15_000_000_000_000n);
  });

  it('refuses a number JavaScript spells with an exponent, or a negative one', () => {
    expect(() => picoFromDatasetNumber(1e-7)).toThrow(RangeError);
    expect(() => picoFromDatasetNumber(1e21)).toThrow(RangeError);
    expect(() => picoFromDatasetNumber(-1)).toThrow(RangeError);
  });

  it('leaves out off-peak prices limited to a time of day', () => {
    const model: ModelInfo = {
      id: 'off-peak-model',
      match: { equals: 'off-peak-model' },
      prices: [
        { prices: flat },
        { constraint: { type: 'time_of_date', start_time: '16:30:00Z', end_time: '00:30:00Z' }, prices: { input_mtok: 0.5, output_mtok: 1 } },
        { constraint: { type: 'start_date', start_date: '2027-01-01' }, prices: { input_mtok: 2, output_mtok: 4 } },
      ],
    };
    expect(datasetPriceEntries(model)?.map((entry) => [entry.effectiveFrom, entry.text?.input.base])).toEqual([
      ['1970-01-01', 1_000_000_000_000n],
      ['2027-01-01', 2_000_000_000_000n],
    ]);
  });

  it('prices a model without an input or output rate at nothing rather than at zero', () => {
    expect(datasetPriceEntries({ id: 'embedding', match: { equals: 'embedding' }, prices: { input_mtok: 0.02 } })).toBeUndefined();
  });

  it('takes the one-hour cache-write price from the cache-write price when the dataset has none', () => {
    const entries = datasetPriceEntries({ id: 'cached', match: { equals: 'cached' }, prices: { ...flat, cache_write_mtok: 1.25 } });
    expect(entries?.[0]?.text?.cacheWriteOneHour.base).toBe(1_250_000_000_000n);
  });
});
