import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { isGenerationCall, startSimulatorUpstream, type SimulatorUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/**
 * A model with no price (none configured, none in the dataset) has an unknown cost, never a cost
 * of nothing: a key with a budget is refused it, unless the operator says `price: { free: true }`.
 */

let simulator: SimulatorUpstream;

/** The simulator's image rules, without its price. */
const imageRules = (defaultConfig({}) as { models: { id: string; image?: unknown }[] }).models.find((model) => model.id === 'sim-image')?.image;

function providers() {
  return {
    'up-openai': { type: 'openai', base_url: `${simulator.url}/v1` },
    'up-anthropic': { type: 'anthropic', base_url: simulator.url },
  };
}

beforeAll(async () => {
  simulator = await startSimulatorUpstream();
});
afterAll(async () => {
  await simulator.close();
});

type OpenAIError = InstanceType<typeof OpenAI.APIError>;
type AnthropicError = InstanceType<typeof Anthropic.APIError>;

async function ledgerOf(gateway: TestGateway, keyId: string) {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

describe('a model without a price', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({
      providers: providers(),
      models: [
        // Upstream ids the pricing dataset does not know: no price from anywhere.
        { id: 'unpriced-gpt', routes: [{ provider: 'up-openai', model: 'sim-gpt' }] },
        { id: 'unpriced-claude', routes: [{ provider: 'up-anthropic', model: 'sim-claude' }] },
        { id: 'unpriced-image', output_modality: 'image', routes: [{ provider: 'up-openai', model: 'sim-image' }], image: imageRules },
      ],
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('is refused to a key with a budget with a 402 naming the reason, in the chat, Responses and Messages shapes, with nothing sent upstream or charged', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const before = simulator.calls(isGenerationCall);
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const chat = (await openai.chat.completions.create({ model: 'unpriced-gpt', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)) as OpenAIError;
    expect(chat.status).toBe(402);
    expect(chat.error).toMatchObject({ type: 'insufficient_quota', code: 'model_unpriced' });
    expect(chat.message).toContain("'unpriced-gpt' has no price");
    const responses = (await openai.responses.create({ model: 'unpriced-gpt', max_output_tokens: 16, input: 'hi' }).catch((error: unknown) => error)) as OpenAIError;
    expect(responses.status).toBe(402);
    expect(responses.message).toContain('price: { free: true }');
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const messages = (await anthropic.messages.create({ model: 'unpriced-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)) as AnthropicError;
    expect(messages.status).toBe(402);
    expect(messages.error).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    expect(messages.message).toContain("'unpriced-claude' has no price");
    expect(simulator.calls(isGenerationCall)).toBe(before);
    expect(await ledgerOf(gateway, id)).toEqual([]);
  });

  it('is refused to a key with a budget on the images endpoint too, with nothing generated or charged', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
    const before = simulator.calls(isGenerationCall);
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const refused = (await openai.images.generate({ model: 'unpriced-image', prompt: 'a cat', quality: 'low', size: '1024x1024' }).catch((error: unknown) => error)) as OpenAIError;
    expect(refused.status).toBe(402);
    expect(refused.error).toMatchObject({ code: 'model_unpriced' });
    expect(simulator.calls(isGenerationCall)).toBe(before);
    expect(await ledgerOf(gateway, id)).toEqual([]);
  });

  it('is still served to a key without a budget', async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, {});
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'unpriced-gpt', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message.content).toBeTruthy();
  });

  it('is named in a warning at start, one per model, and published as "priced": false with no price fields', async () => {
    const warnings = gateway
      .logs()
      .split('\n')
      .filter((line) => line.includes('has no price'))
      .map((line) => (JSON.parse(line) as { level: number | string; model: string }).model);
    expect(warnings.sort()).toEqual(['unpriced-claude', 'unpriced-gpt', 'unpriced-image']);
    const pricing = (await (await fetch(`${gateway.url}/v1/models/pricing?model=unpriced-gpt`)).json()) as { data: unknown[] };
    expect(pricing.data).toEqual([{ object: 'model.pricing', model: 'unpriced-gpt', output_modality: 'text', priced: false }]);
  });
});

describe('a model the operator prices free: true', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({
      providers: providers(),
      models: [
        { id: 'free-gpt', routes: [{ provider: 'up-openai', model: 'sim-gpt' }], price: { free: true } },
        { id: 'free-image', output_modality: 'image', routes: [{ provider: 'up-openai', model: 'sim-image' }], image: imageRules, price: { free: true } },
      ],
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('serves a key with a budget at $0, in text and images, and is published as priced and free, with no start warning', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 1n });
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const chat = await openai.chat.completions.create({ model: 'free-gpt', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(chat.response.headers.get('x-request-cost-usd')).toBe('0.00');
    const image = await openai.images.generate({ model: 'free-image', prompt: 'a cat', quality: 'low', size: '1024x1024' }).withResponse();
    expect(image.response.headers.get('x-request-cost-usd')).toBe('0.00');
    const entries = await ledgerOf(gateway, id);
    expect(entries.map((entry) => [entry.model, entry.status, entry.costNanoUsd])).toEqual(
      expect.arrayContaining([
        ['free-gpt', 200, 0n],
        ['free-image', 200, 0n],
      ]),
    );
    expect(entries.find((entry) => entry.model === 'free-gpt')?.output).toBeGreaterThan(0);
    const pricing = (await (await fetch(`${gateway.url}/v1/models/pricing?model=free-gpt`)).json()) as { data: Record<string, unknown>[] };
    expect(pricing.data[0]).toMatchObject({ model: 'free-gpt', priced: true, free: true, text: { input_usd_per_mtok: '0.00', output_usd_per_mtok: '0.00' } });
    expect(gateway.logs()).not.toContain('has no price');
  });
});
