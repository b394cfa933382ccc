import { calcPrice } from '@pydantic/genai-prices';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';
import { meteredReply, startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';

/**
 * Operators see where each model's prices come from (the config, the pricing dataset's row for a
 * cloud or for the vendor, or nowhere) in the admin API and the start's log, and a call is charged
 * what that row says.
 */

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let adminSecret: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: meteredReply });
  gateway = await startTestGateway({
    providers: { openai: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'k' } },
    models: [
      { id: 'vendor-priced', routes: [{ provider: 'openai', model: 'gpt-4.1-mini' }] },
      { id: 'marked-up', routes: [{ provider: 'openai', model: 'gpt-4.1-mini' }], price: { markup_percent: '10' } },
      { id: 'operator-priced', routes: [{ provider: 'openai', model: 'gpt-4.1-mini' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } },
      { id: 'house-model', routes: [{ provider: 'openai', model: 'house-model-7' }] },
    ],
  });
  adminSecret = (await insertKey(gateway.services.storage, 'admin', true)).secret;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

interface ModelRoutes {
  model: string;
  price_source: string;
  price_dataset_row: { provider: string; model: string; looked_up: string } | null;
}

async function adminModels(): Promise<Map<string, ModelRoutes>> {
  const response = await fetch(`${gateway.url}/admin/routes`, { headers: { authorization: `Bearer ${adminSecret}` } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: ModelRoutes[] };
  return new Map(body.data.map((entry) => [entry.model, entry]));
}

describe('where a model is priced from', () => {
  it('is shown per model by GET /admin/routes: the config, the vendor row of the dataset (marked up or not), or none', async () => {
    const models = await adminModels();
    expect(models.get('vendor-priced')).toMatchObject({
      price_source: 'vendor-dataset',
      price_dataset_row: { provider: 'openai', model: 'gpt-4.1-mini', looked_up: 'gpt-4.1-mini' },
    });
    expect(models.get('marked-up')).toMatchObject({ price_source: 'vendor-dataset', price_dataset_row: { model: 'gpt-4.1-mini' } });
    expect(models.get('operator-priced')).toMatchObject({ price_source: 'config', price_dataset_row: null });
    expect(models.get('house-model')).toMatchObject({ price_source: 'none', price_dataset_row: null });
  });

  it('is logged once at start for every model', () => {
    const line = gateway
      .logs()
      .split('\n')
      .find((candidate) => candidate.includes('model prices'));
    expect(line).toBeDefined();
    const logged = JSON.parse(line ?? '{}') as { prices: { model: string; price_source: string }[] };
    expect(logged.prices.map((entry) => [entry.model, entry.price_source])).toEqual([
      ['vendor-priced', 'vendor-dataset'],
      ['marked-up', 'vendor-dataset'],
      ['operator-priced', 'config'],
      ['house-model', 'none'],
    ]);
  });

  it("charges a call at the dataset row it names, the dataset's own figure for that usage", async () => {
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: adminSecret, maxRetries: 0 });
    // 1,200 prompt tokens of which 200 cached, 300 completion tokens.
    await openai.chat.completions.create({ model: 'vendor-priced', messages: [{ role: 'user', content: 'id=row usage=1200,200,300,0' }] });
    const entry = await waitForLedgerEntry(gateway, 1);
    const figure = calcPrice({ input_tokens: 1_200, cache_read_tokens: 200, output_tokens: 300 }, 'gpt-4.1-mini', { providerId: 'openai' });
    expect(figure?.model.id).toBe('gpt-4.1-mini');
    expect(Number(entry.costNanoUsd) / 1e9).toBeCloseTo(figure?.total_price ?? Number.NaN, 9);
  });
});
