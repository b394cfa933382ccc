import Anthropic from '@anthropic-ai/sdk';
import { calcPrice } from '@pydantic/genai-prices';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';
import { azureReply, json, startScriptedUpstream, type AzureOperation, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';

/**
 * Models on Azure OpenAI priced from the pricing dataset: Azure's own row where it has one, the
 * model's vendor's row where the dataset says Azure sells it at that price, the public id where the
 * route names a deployment, and no price (refused to budgeted keys) where nothing says which model
 * a deployment runs. Each ledger entry is checked against the dataset's own figure for its row.
 */

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let adminSecret: string;

// Every answer reports 1,200 input tokens (200 of them cached) and 300 output tokens.
const usageAsked = { input_tokens: 1_200, cache_read_tokens: 200, output_tokens: 300 };

function answer(operation: AzureOperation) {
  if (operation.operation === 'responses') {
    return json({
      id: 'resp_az',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'deployed',
      output: [{ id: 'msg_az', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'fine', annotations: [] }] }],
      usage: { input_tokens: 1_200, input_tokens_details: { cached_tokens: 200 }, output_tokens: 300, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1_500 },
    });
  }
  return json({
    id: 'chatcmpl-az',
    object: 'chat.completion',
    created: 1,
    model: 'deployed',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'fine' } }],
    usage: { prompt_tokens: 1_200, completion_tokens: 300, total_tokens: 1_500, prompt_tokens_details: { cached_tokens: 200 }, completion_tokens_details: { reasoning_tokens: 0 } },
  });
}

beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: azureReply({ apiKey: 'azure-upstream-key' }, answer) });
  gateway = await startTestGateway({
    providers: {
      'azure-v1': { type: 'azure', base_url: `${upstream.url}/openai/v1`, api_key: 'azure-upstream-key' },
      'azure-classic': { type: 'azure', base_url: upstream.url, api_version: '2025-04-01-preview', api_key: 'azure-upstream-key' },
    },
    models: [
      { id: 'reasoning-mini', routes: [{ provider: 'azure-v1', model: 'o4-mini' }] },
      // The route names a deployment; the public id says which model it runs.
      { id: 'gpt-4o', routes: [{ provider: 'azure-classic', model: 'prod-chat-eastus' }] },
      { id: 'house-chat', routes: [{ provider: 'azure-classic', model: 'prod-chat-eastus' }] },
      { id: 'house-chat-priced', routes: [{ provider: 'azure-classic', model: 'prod-chat-eastus' }], price: { input_per_mtok: '1.00', output_per_mtok: '4.00' } },
    ],
  });
  adminSecret = (await insertKey(gateway.services.storage, 'admin', true)).secret;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function entriesOf(keyId: string): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

/** The dataset's own figure for the usage every answer reports, from the row the test names. */
function datasetUsd(providerId: string, modelId: string, expectedRow: string): number {
  const figure = calcPrice(usageAsked, modelId, { providerId });
  expect(figure?.model.id).toBe(expectedRow);
  return figure?.total_price ?? Number.NaN;
}

async function priceSources(): Promise<Record<string, unknown>> {
  const response = await fetch(`${gateway.url}/admin/routes`, { headers: { authorization: `Bearer ${adminSecret}` } });
  const body = (await response.json()) as { data: { model: string; price_source: string; price_dataset_row: unknown }[] };
  return Object.fromEntries(body.data.map((entry) => [entry.model, [entry.price_source, entry.price_dataset_row]]));
}

describe('prices of models on Azure OpenAI', () => {
  it("records where each model's price comes from: Azure's row, OpenAI's row through the public id, the config, or none", async () => {
    expect(await priceSources()).toEqual({
      'reasoning-mini': ['cloud-dataset', { provider: 'azure', model: 'o4-mini', looked_up: 'o4-mini' }],
      'gpt-4o': ['vendor-dataset', { provider: 'openai', model: 'gpt-4o', looked_up: 'gpt-4o' }],
      'house-chat': ['none', null],
      'house-chat-priced': ['config', null],
    });
  });

  it("charges o4-mini on Azure at Azure's row (its cache reads cost more than on OpenAI), from chat, Responses and Messages clients alike", async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const chat = await openai.chat.completions.create({ model: 'reasoning-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    await openai.responses.create({ model: 'reasoning-mini', input: 'hi' });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    await anthropic.messages.create({ model: 'reasoning-mini', max_tokens: 500, messages: [{ role: 'user', content: 'hi' }] });
    const expected = datasetUsd('azure', 'o4-mini', 'o4-mini');
    expect(expected).not.toBeCloseTo(datasetUsd('openai', 'o4-mini', 'o4-mini'), 9);
    expect(Number(chat.response.headers.get('x-request-cost-usd'))).toBeCloseTo(expected, 9);
    const entries = await entriesOf(id);
    expect(entries.map((entry) => entry.endpoint).sort()).toEqual(['chat', 'messages', 'responses']);
    for (const entry of entries) {
      expect([entry.inputUncached, entry.cacheRead, entry.output]).toEqual([1_000, 200, 300]);
      expect(Number(entry.costNanoUsd) / 1e9).toBeCloseTo(expected, 9);
    }
  });

  it("charges a deployment named in the route at OpenAI's row for the model its public id names", async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const [entry] = await entriesOf(id);
    expect(entry?.upstreamModel).toBe('prod-chat-eastus');
    expect(Number(entry?.costNanoUsd) / 1e9).toBeCloseTo(datasetUsd('azure', 'gpt-4o', 'gpt-4o'), 9);
  });

  it('refuses a deployment nothing prices to a key with a budget, with nothing sent upstream or charged, and serves it priced by the config', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const before = upstream.requests.length;
    const refused = (await openai.chat.completions.create({ model: 'house-chat', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
    expect(refused.status).toBe(402);
    expect(refused.error).toMatchObject({ code: 'model_unpriced' });
    expect(upstream.requests.length).toBe(before);
    expect(await entriesOf(id)).toEqual([]);
    await openai.chat.completions.create({ model: 'house-chat-priced', messages: [{ role: 'user', content: 'hi' }] });
    const [entry] = await entriesOf(id);
    // 1,000 uncached and 200 cached input tokens at $1.00 per million (cache reads cost the input price), 300 output at $4.00.
    expect(entry?.costNanoUsd).toBe(2_400_000n);
  });
});
