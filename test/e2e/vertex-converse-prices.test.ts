import Anthropic from '@anthropic-ai/sdk';
import { calcPrice, findProvider } from '@pydantic/genai-prices';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { insertKey } from '../support/admin-keys.js';
import { converseAnswer } from '../support/fake-bedrock/default-answers.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { readFixture } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/**
 * Gemini and Claude on Vertex AI and a model Bedrock serves through Converse (Amazon Nova, through
 * its US cross-region profile), none given a price in the config: each call is charged from the
 * pricing dataset's row for the cloud that served it, and the ledger entry equals the tokens the
 * upstream reported times that row's rates, multiplied out here from the row itself.
 */
let vertex: FakeVertex;
let bedrock: FakeBedrock;
let gateway: TestGateway;
let adminSecret: string;

const novaProfile = 'us.amazon.nova-pro-v1:0';

// Every answer: 1,000 uncached input tokens, 200 read from the cache, 300 output (Claude also writes 100 to the cache).
const geminiUsage = { promptTokenCount: 1_200, cachedContentTokenCount: 200, candidatesTokenCount: 300, totalTokenCount: 1_500 };
const claudeUsage = { input_tokens: 1_000, cache_read_input_tokens: 200, cache_creation_input_tokens: 100, output_tokens: 300 };
const converseUsage = { inputTokens: 1_000, cacheReadInputTokens: 200, outputTokens: 300, totalTokens: 1_500 };

beforeAll(async () => {
  vertex = await startFakeVertex({ project: 'prices-project', location: 'us-east5' });
  vertex.answer((call) => {
    if (call.publisher === 'anthropic') return { body: JSON.stringify({ ...JSON.parse(readFixture('anthropic/messages/anthropic-text.json')), usage: claudeUsage }) };
    return { body: JSON.stringify({ ...JSON.parse(readFixture('google/generate-content/google-text.json')), usageMetadata: geminiUsage }) };
  });
  bedrock = await startFakeBedrock();
  gateway = await startTestGateway({
    providers: {
      vertex: { type: 'vertex', project: vertex.project, location: vertex.location, credentials_file: vertex.account.keyFile, base_url: vertex.url },
      bedrock: { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, access_key_id: bedrock.secret.accessKeyId, secret_access_key: bedrock.secret.secretAccessKey },
    },
    models: [
      { id: 'gemini-on-vertex', routes: [{ provider: 'vertex', model: 'gemini-2.5-flash' }] },
      { id: 'claude-on-vertex', routes: [{ provider: 'vertex', model: 'claude-sonnet-4-5@20250929' }] },
      { id: 'nova-on-bedrock', routes: [{ provider: 'bedrock', model: novaProfile }] },
    ],
  });
  adminSecret = (await insertKey(gateway.services.storage, 'admin', true)).secret;
});

afterAll(async () => {
  await gateway.close();
  await vertex.close();
  await bedrock.close();
});

type Rate = number | { readonly base: number } | undefined;
interface RowPrices {
  readonly input_mtok?: Rate;
  readonly cache_read_mtok?: Rate;
  readonly cache_write_mtok?: Rate;
  readonly output_mtok?: Rate;
}

/** The row's current rates (USD per million tokens), below any long-context tier, read from the dataset itself. */
function rowRates(providerId: string, rowId: string): Required<{ [K in keyof RowPrices]: number }> {
  const row = findProvider({ providerId })?.models.find((model) => model.id === rowId);
  expect(row, `${providerId} row ${rowId}`).toBeDefined();
  const listed = row!.prices as unknown;
  const prices = (Array.isArray(listed) ? (listed.at(-1) as { prices: RowPrices }).prices : listed) as RowPrices;
  const rate = (value: Rate): number => (value === undefined ? 0 : typeof value === 'number' ? value : value.base);
  return { input_mtok: rate(prices.input_mtok), cache_read_mtok: rate(prices.cache_read_mtok), cache_write_mtok: rate(prices.cache_write_mtok), output_mtok: rate(prices.output_mtok) };
}

/** Tokens times the row's rates, in nano-USD: a rate per million tokens is that many thousand nano-USD per token. */
function expectedNanoUsd(rates: ReturnType<typeof rowRates>, tokens: { uncached: number; cacheRead: number; cacheWrite: number; output: number }): bigint {
  const nano = tokens.uncached * rates.input_mtok * 1_000 + tokens.cacheRead * rates.cache_read_mtok * 1_000 + tokens.cacheWrite * rates.cache_write_mtok * 1_000 + tokens.output * rates.output_mtok * 1_000;
  return BigInt(Math.round(nano));
}

async function entriesOf(keyId: string): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

describe('prices of Vertex AI and Bedrock Converse models with no configured price', () => {
  it('are shown as the cloud rows they come from', async () => {
    const response = await fetch(`${gateway.url}/admin/routes`, { headers: { authorization: `Bearer ${adminSecret}` } });
    const body = (await response.json()) as { data: { model: string; price_source: string; price_dataset_row: unknown }[] };
    expect(Object.fromEntries(body.data.map((entry) => [entry.model, [entry.price_source, entry.price_dataset_row]]))).toEqual({
      'gemini-on-vertex': ['cloud-dataset', { provider: 'google', model: 'gemini-2.5-flash', looked_up: 'gemini-2.5-flash' }],
      'claude-on-vertex': ['cloud-dataset', { provider: 'google', model: 'claude-sonnet-4-5', looked_up: 'claude-sonnet-4-5@20250929' }],
      'nova-on-bedrock': [
        'cloud-dataset',
        // The dataset's Nova Pro row also matches its US profile's id, at the in-region rates.
        { provider: 'aws', model: 'amazon.nova-pro-v1:0', looked_up: novaProfile, cross_region: { prefix: 'us', profile_priced: true, against_in_region: 'same' } },
      ],
    });
  });

  it("charges each call its cloud row's rates times the tokens the upstream reported", async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    bedrock.script({ kind: 'converse', body: { ...converseAnswer(), usage: converseUsage } });

    const gemini = await openai.chat.completions.create({ model: 'gemini-on-vertex', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    const claude = await anthropic.messages.create({ model: 'claude-on-vertex', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    const nova = await openai.chat.completions.create({ model: 'nova-on-bedrock', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(vertex.accepted.map((call) => call.method)).toEqual(['generateContent', 'rawPredict']);
    expect(bedrock.requests.map((request) => [request.operation, request.modelId])).toEqual([['converse', novaProfile]]);

    const expected = {
      'gemini-on-vertex': expectedNanoUsd(rowRates('google', 'gemini-2.5-flash'), { uncached: 1_000, cacheRead: 200, cacheWrite: 0, output: 300 }),
      'claude-on-vertex': expectedNanoUsd(rowRates('google', 'claude-sonnet-4-5'), { uncached: 1_000, cacheRead: 200, cacheWrite: 100, output: 300 }),
      'nova-on-bedrock': expectedNanoUsd(rowRates('aws', 'amazon.nova-pro-v1:0'), { uncached: 1_000, cacheRead: 200, cacheWrite: 0, output: 300 }),
    };
    // The same figures as the dataset's own calculator gives for those rows.
    expect(Number(expected['gemini-on-vertex']) / 1e9).toBeCloseTo(calcPrice({ input_tokens: 1_200, cache_read_tokens: 200, output_tokens: 300 }, 'gemini-2.5-flash', { providerId: 'google' })!.total_price, 9);
    expect(Number(expected['claude-on-vertex']) / 1e9).toBeCloseTo(
      calcPrice({ input_tokens: 1_300, cache_read_tokens: 200, cache_write_tokens: 100, output_tokens: 300 }, 'claude-sonnet-4-5', { providerId: 'google' })!.total_price,
      9,
    );
    expect(Number(expected['nova-on-bedrock']) / 1e9).toBeCloseTo(calcPrice({ input_tokens: 1_200, cache_read_tokens: 200, output_tokens: 300 }, 'amazon.nova-pro-v1:0', { providerId: 'aws' })!.total_price, 9);

    const entries = await entriesOf(id);
    expect(Object.fromEntries(entries.map((entry) => [entry.model, [entry.provider, entry.inputUncached, entry.cacheRead, entry.cacheWrite, entry.output]]))).toEqual({
      'gemini-on-vertex': ['vertex', 1_000, 200, 0, 300],
      'claude-on-vertex': ['vertex', 1_000, 200, 100, 300],
      'nova-on-bedrock': ['bedrock', 1_000, 200, 0, 300],
    });
    expect(Object.fromEntries(entries.map((entry) => [entry.model, entry.costNanoUsd]))).toEqual(expected);
    for (const [model, answer] of [['gemini-on-vertex', gemini], ['claude-on-vertex', claude], ['nova-on-bedrock', nova]] as const) {
      expect(Number(answer.response.headers.get('x-request-cost-usd'))).toBeCloseTo(Number(expected[model]) / 1e9, 9);
    }
  });
});
