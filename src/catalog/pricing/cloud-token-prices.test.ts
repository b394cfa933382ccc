import { calcPrice } from '@pydantic/genai-prices';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Usage } from '../../ir/usage.js';
import { costNanoUsd } from './cost.js';
import { type DatasetPrice, type DatasetTokenPrices, loadDatasetTokenPrices } from './dataset-token-prices.js';
import { priceAt, scheduleOf } from './price-schedule.js';

let prices: DatasetTokenPrices;

beforeAll(async () => {
  prices = await loadDatasetTokenPrices();
});

const at = new Date('2026-06-01T00:00:00Z');
const usage: Usage = { inputUncached: 1_000, cacheRead: 200, cacheWrite: 100, output: 300, reasoning: 0 };
const longContext: Usage = { inputUncached: 250_000, cacheRead: 0, cacheWrite: 0, output: 1_000, reasoning: 0 };

function found(kind: string, modelId: string): DatasetPrice {
  const price = prices(kind, modelId);
  if (price === undefined) throw new Error(`no dataset price for ${kind} ${modelId}`);
  return price;
}

/** What the gateway charges for `spent` at the price the lookup found, in USD. */
function chargedUsd(price: DatasetPrice, spent: Usage): number {
  const schedule = scheduleOf(price.entries, price.source, price.origin);
  return Number(costNanoUsd(priceAt(schedule, at), { tokens: spent })) / 1e9;
}

/**
 * The dataset's own figure for the same usage, by its own calculator, for the row the test names:
 * its input count includes cached tokens, where ours keeps them apart.
 */
function datasetUsd(providerId: string, modelId: string, expectedRow: string, spent: Usage): number {
  const result = calcPrice(
    { input_tokens: spent.inputUncached + spent.cacheRead + spent.cacheWrite, cache_read_tokens: spent.cacheRead, cache_write_tokens: spent.cacheWrite, output_tokens: spent.output },
    modelId,
    { providerId, timestamp: at },
  );
  expect(result?.model.id).toBe(expectedRow);
  return result?.total_price ?? Number.NaN;
}

describe('cloud prices from the pricing dataset', () => {
  it('prices Claude on Bedrock through a US profile at the regional row, the same as in one region', () => {
    const price = found('bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(price.source).toBe('cloud-dataset');
    expect(price.origin).toEqual({
      provider: 'aws',
      model: 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0',
      lookedUp: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      crossRegion: { prefix: 'us', profilePriced: true, againstInRegion: 'same' },
    });
    expect(chargedUsd(price, usage)).toBeCloseTo(datasetUsd('aws', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0', usage), 9);
    // Not Anthropic's own price: Bedrock's regional rows carry a premium over it.
    expect(chargedUsd(price, usage)).toBeGreaterThan(datasetUsd('anthropic', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', usage));
  });

  it('prices the global profile of Claude on Bedrock at its own row, below the in-region price', () => {
    const price = found('bedrock', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(price.origin.model).toBe('global.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(price.origin.crossRegion).toEqual({ prefix: 'global', profilePriced: true, againstInRegion: 'lower' });
    expect(chargedUsd(price, usage)).toBeCloseTo(
      datasetUsd('aws', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0', usage),
      9,
    );
  });

  it('prices Nova and Llama on Bedrock, with or without a cross-region prefix', () => {
    const nova = found('bedrock', 'us.amazon.nova-pro-v1:0');
    expect(nova).toMatchObject({ source: 'cloud-dataset', origin: { provider: 'aws', model: 'amazon.nova-pro-v1:0', crossRegion: { prefix: 'us', againstInRegion: 'same' } } });
    expect(chargedUsd(nova, usage)).toBeCloseTo(datasetUsd('aws', 'us.amazon.nova-pro-v1:0', 'amazon.nova-pro-v1:0', usage), 9);
    const llama = found('bedrock', 'meta.llama3-3-70b-instruct-v1:0');
    expect(llama.origin).toEqual({ provider: 'aws', model: 'meta.llama3-3-70b-instruct-v1:0', lookedUp: 'meta.llama3-3-70b-instruct-v1:0' });
    expect(chargedUsd(llama, usage)).toBeCloseTo(datasetUsd('aws', 'meta.llama3-3-70b-instruct-v1:0', 'meta.llama3-3-70b-instruct-v1:0', usage), 9);
  });

  it('cuts a cross-region prefix the dataset has no row for and says the premium is unknown', () => {
    const price = found('bedrock', 'us.openai.gpt-5.4');
    expect(price.origin).toEqual({
      provider: 'aws',
      model: 'openai.gpt-5.4',
      lookedUp: 'openai.gpt-5.4',
      crossRegion: { prefix: 'us', profilePriced: false, againstInRegion: 'unknown' },
    });
    expect(chargedUsd(price, usage)).toBeCloseTo(datasetUsd('aws', 'openai.gpt-5.4', 'openai.gpt-5.4', usage), 9);
  });

  it('reads the model id out of a foundation model or system inference profile ARN', () => {
    expect(found('bedrock', 'arn:aws:bedrock:us-east-1::foundation-model/meta.llama3-3-70b-instruct-v1:0').origin.model).toBe('meta.llama3-3-70b-instruct-v1:0');
    expect(found('bedrock', 'arn:aws:bedrock:us-east-1:111122223333:inference-profile/global.anthropic.claude-sonnet-4-5-20250929-v1:0').origin.model).toBe(
      'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
    expect(prices('bedrock', 'arn:aws:bedrock:us-east-1:111122223333:application-inference-profile/a1b2c3')).toBeUndefined();
  });

  it('prices Gemini on Vertex from the Google rows', () => {
    const price = found('vertex', 'gemini-2.5-flash');
    expect(price).toMatchObject({ source: 'cloud-dataset', origin: { provider: 'google', model: 'gemini-2.5-flash' } });
    expect(chargedUsd(price, usage)).toBeCloseTo(datasetUsd('google', 'gemini-2.5-flash', 'gemini-2.5-flash', usage), 9);
  });

  it("prices Claude on Vertex from the Google rows, with Vertex's long-context tier where Anthropic's own row has none", () => {
    const sonnet = found('vertex', 'claude-sonnet-4-5@20250929');
    expect(sonnet).toMatchObject({ source: 'cloud-dataset', origin: { provider: 'google', model: 'claude-sonnet-4-5', lookedUp: 'claude-sonnet-4-5@20250929' } });
    expect(chargedUsd(sonnet, usage)).toBeCloseTo(datasetUsd('google', 'claude-sonnet-4-5@20250929', 'claude-sonnet-4-5', usage), 9);
    const opus = found('vertex', 'claude-opus-4-6');
    expect(opus).toMatchObject({ source: 'cloud-dataset', origin: { provider: 'google', model: 'claude-opus-4-6' } });
    expect(chargedUsd(opus, longContext)).toBeCloseTo(datasetUsd('google', 'claude-opus-4-6', 'claude-opus-4-6', longContext), 9);
    expect(chargedUsd(opus, longContext)).toBeGreaterThan(datasetUsd('anthropic', 'claude-opus-4-6', 'claude-opus-4-6', longContext));
  });

  it("prices a Claude model the Google rows lack at Anthropic's row, the dataset's fallback for Vertex", () => {
    const price = found('vertex', 'claude-haiku-4-5@20251001');
    expect(price).toMatchObject({ source: 'vendor-dataset', origin: { provider: 'anthropic', model: 'claude-haiku-4-5' } });
    expect(chargedUsd(price, usage)).toBeCloseTo(datasetUsd('anthropic', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5', usage), 9);
  });

  it("prices an OpenAI model on Azure at Azure's own row, whose cache reads differ from OpenAI's", () => {
    const price = found('azure', 'o4-mini');
    expect(price).toMatchObject({ source: 'cloud-dataset', origin: { provider: 'azure', model: 'o4-mini' } });
    expect(chargedUsd(price, usage)).toBeCloseTo(datasetUsd('azure', 'o4-mini', 'o4-mini', usage), 9);
    expect(chargedUsd(price, usage)).not.toBeCloseTo(datasetUsd('openai', 'o4-mini', 'o4-mini', usage), 9);
  });

  it("prices a gpt model Azure's rows lack at OpenAI's row, the dataset's first fallback for Azure", () => {
    const price = found('azure', 'gpt-4o');
    expect(price).toMatchObject({ source: 'vendor-dataset', origin: { provider: 'openai', model: 'gpt-4o' } });
    expect(chargedUsd(price, usage)).toBeCloseTo(datasetUsd('azure', 'gpt-4o', 'gpt-4o', usage), 9);
  });

  it('has no price for an Azure deployment name, a model no row knows, or an unknown kind', () => {
    expect(prices('azure', 'prod-chat-eastus')).toBeUndefined();
    expect(prices('bedrock', 'acme.private-model-v1:0')).toBeUndefined();
    expect(prices('vertex', 'claude-unreleased-9@20990101')).toBeUndefined();
    expect(prices('fal', 'fal-ai/flux')).toBeUndefined();
  });

  it("searches a vendor's own API in its rows alone: Claude is not priced on the Gemini API", () => {
    expect(prices('gemini', 'claude-haiku-4-5@20251001')).toBeUndefined();
    expect(found('anthropic', 'claude-haiku-4-5-20251001').source).toBe('vendor-dataset');
  });
});
