import Anthropic from '@anthropic-ai/sdk';
import { calcPrice } from '@pydantic/genai-prices';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { insertKey } from '../support/admin-keys.js';
import { claudeAnswer } from '../support/fake-bedrock/default-answers.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';
import { closedPortUrl } from '../support/scripted-upstream/index.js';

/**
 * Claude on a fake Bedrock (which checks every call's SigV4 signature) charged at Bedrock's rows of
 * the pricing dataset, not Anthropic's: a US profile at the regional row, a global profile at the
 * global row, each ledger entry equal to the dataset's own figure for that row; a model named by an
 * application inference profile's ARN has no price and is refused to budgeted keys.
 */

const usProfile = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const globalProfile = 'global.anthropic.claude-sonnet-4-5-20250929-v1:0';
let bedrock: FakeBedrock;
let gateway: TestGateway;
let adminSecret: string;

// Every answer: 1,000 uncached input tokens, 200 read from the cache, 100 written to it, 300 output.
const reported = { input_tokens: 1_000, cache_read_input_tokens: 200, cache_creation_input_tokens: 100, output_tokens: 300 };

beforeAll(async () => {
  bedrock = await startFakeBedrock();
  gateway = await startTestGateway({
    routing: { attempts_per_route: 1 },
    providers: {
      // Anthropic's own API, down: its calls fall back to Bedrock.
      anthropic: { type: 'anthropic', base_url: await closedPortUrl(), api_key: 'k' },
      bedrock: { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, access_key_id: bedrock.secret.accessKeyId, secret_access_key: bedrock.secret.secretAccessKey },
    },
    models: [
      { id: 'claude-us', routes: [{ provider: 'bedrock', model: usProfile }] },
      { id: 'claude-global', routes: [{ provider: 'bedrock', model: globalProfile }] },
      { id: 'claude-anthropic-then-bedrock', routes: [{ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' }, { provider: 'bedrock', model: usProfile }] },
      { id: 'claude-application-profile', routes: [{ provider: 'bedrock', model: 'arn:aws:bedrock:us-east-1:111122223333:application-inference-profile/a1b2c3' }] },
    ],
  });
  adminSecret = (await insertKey(gateway.services.storage, 'admin', true)).secret;
});

afterAll(async () => {
  await gateway.close();
  await bedrock.close();
});

function scriptAnswers(count: number): void {
  for (let index = 0; index < count; index += 1) bedrock.script({ kind: 'invoke', body: { ...claudeAnswer('claude-sonnet-4-5-20250929'), usage: reported } });
}

/** The dataset's own figure for the usage every answer reports, from the row the test names. */
function datasetUsd(providerId: string, modelId: string, expectedRow: string): number {
  const figure = calcPrice(
    { input_tokens: 1_300, cache_read_tokens: 200, cache_write_tokens: 100, output_tokens: 300 },
    modelId,
    { providerId },
  );
  expect(figure?.model.id).toBe(expectedRow);
  return figure?.total_price ?? Number.NaN;
}

async function entriesOf(keyId: string): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

describe('prices of Claude on Bedrock', () => {
  it('are shown as the cloud rows they come from, with how each cross-region profile was priced', async () => {
    const response = await fetch(`${gateway.url}/admin/routes`, { headers: { authorization: `Bearer ${adminSecret}` } });
    const body = (await response.json()) as { data: { model: string; price_source: string; price_dataset_row: unknown }[] };
    expect(Object.fromEntries(body.data.map((entry) => [entry.model, [entry.price_source, entry.price_dataset_row]]))).toEqual({
      'claude-us': [
        'cloud-dataset',
        { provider: 'aws', model: 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0', looked_up: usProfile, cross_region: { prefix: 'us', profile_priced: true, against_in_region: 'same' } },
      ],
      'claude-global': [
        'cloud-dataset',
        { provider: 'aws', model: globalProfile, looked_up: globalProfile, cross_region: { prefix: 'global', profile_priced: true, against_in_region: 'lower' } },
      ],
      'claude-anthropic-then-bedrock': ['vendor-dataset', { provider: 'anthropic', model: 'claude-sonnet-4-5', looked_up: 'claude-sonnet-4-5-20250929' }],
      'claude-application-profile': ['none', null],
    });
  });

  it("charges each call at its profile's Bedrock row, from Messages and chat clients, above Anthropic's own price for the US profile", async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    scriptAnswers(3);
    const us = await anthropic.messages.create({ model: 'claude-us', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    await openai.chat.completions.create({ model: 'claude-us', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    await anthropic.messages.create({ model: 'claude-global', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const regional = datasetUsd('aws', usProfile, 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0');
    const global = datasetUsd('aws', globalProfile, globalProfile);
    expect(regional).toBeGreaterThan(datasetUsd('anthropic', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'));
    expect(Number(us.response.headers.get('x-request-cost-usd'))).toBeCloseTo(regional, 9);
    const entries = await entriesOf(id);
    expect(entries).toHaveLength(3);
    for (const entry of entries) {
      expect([entry.inputUncached, entry.cacheRead, entry.cacheWrite, entry.output]).toEqual([1_000, 200, 100, 300]);
      expect(Number(entry.costNanoUsd) / 1e9).toBeCloseTo(entry.model === 'claude-us' ? regional : global, 9);
    }
  });

  it("shows a fallback route's own Bedrock price beside the model's Anthropic one", async () => {
    const response = await fetch(`${gateway.url}/admin/routes`, { headers: { authorization: `Bearer ${adminSecret}` } });
    const body = (await response.json()) as { data: { model: string; routes: Record<string, unknown>[] }[] };
    const routes = body.data.find((entry) => entry.model === 'claude-anthropic-then-bedrock')?.routes ?? [];
    expect(routes.map((route) => [route.provider, route.price_source, (route.price_dataset_row as { model?: string } | undefined)?.model])).toEqual([
      ['anthropic', undefined, undefined],
      ['bedrock', 'cloud-dataset', 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ]);
  });

  it("charges a call that fell back from Anthropic's API to Bedrock at Bedrock's row, not at the model's published Anthropic price", async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    scriptAnswers(1);
    await anthropic.messages.create({ model: 'claude-anthropic-then-bedrock', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const [entry] = await entriesOf(id);
    expect(entry?.provider).toBe('bedrock');
    const regional = datasetUsd('aws', usProfile, 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(regional).not.toBeCloseTo(datasetUsd('anthropic', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'), 9);
    expect(Number(entry?.costNanoUsd) / 1e9).toBeCloseTo(regional, 9);
  });

  it('refuses a model named by an application inference profile to a key with a budget, with nothing signed or sent', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const before = bedrock.requests.length + bedrock.refused.length;
    const refused = (await anthropic.messages.create({ model: 'claude-application-profile', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)) as InstanceType<
      typeof Anthropic.APIError
    >;
    expect(refused.status).toBe(402);
    expect(refused.error).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    expect(bedrock.requests.length + bedrock.refused.length).toBe(before);
    expect(await entriesOf(id)).toEqual([]);
  });
});
