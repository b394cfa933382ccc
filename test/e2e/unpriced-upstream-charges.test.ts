import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountingUpstream } from '../support/counting-upstream.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/**
 * Parts of a request the vendor bills beyond the model's token price (a dearer service tier,
 * hosted tools billed per call, long-context rates) are invisible to the ledger on passthrough.
 * Where the catalog has no price for them, a key with a budget is refused them with a 400.
 */

let gateway: TestGateway;
let simulator: CountingUpstream;

const price = { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' };

beforeAll(async () => {
  simulator = new CountingUpstream();
  await simulator.start();
  gateway = await startTestGateway({
    providers: {
      'up-openai': { type: 'openai', base_url: `${simulator.url}/v1` },
      'up-anthropic': { type: 'anthropic', base_url: simulator.url },
    },
    models: [
      { id: 'tier-gpt', routes: [{ provider: 'up-openai', model: 'sim-gpt' }], price },
      { id: 'flat-claude', routes: [{ provider: 'up-anthropic', model: 'sim-claude' }], price },
      // Priced from the dataset, whose price for this id has a long-context tier above 200,000 tokens.
      { id: 'tiered-claude', routes: [{ provider: 'up-anthropic', model: 'claude-sonnet-4-5-20250929' }] },
    ],
  });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

type OpenAIError = InstanceType<typeof OpenAI.APIError>;
type AnthropicError = InstanceType<typeof Anthropic.APIError>;

async function budgeted() {
  const key = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 10n ** 12n });
  return { ...key, openai: new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key.secret, maxRetries: 0 }), anthropic: new Anthropic({ baseURL: gateway.url, apiKey: key.secret, maxRetries: 0 }) };
}

async function nothingSentOrCharged(keyId: string, receivedBefore: number): Promise<void> {
  expect(simulator.received).toBe(receivedBefore);
  await gateway.services.ledger.flush();
  expect(await gateway.services.storage.ledger.list({ keyId })).toEqual([]);
}

describe('a key with a budget', () => {
  it("is refused service_tier 'priority' on chat and Responses with a 400 naming service_tier, nothing sent or charged", async () => {
    const { id, openai } = await budgeted();
    const before = simulator.received;
    const chat = (await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, service_tier: 'priority', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)) as OpenAIError;
    expect(chat.status).toBe(400);
    expect(chat.error).toMatchObject({ type: 'invalid_request_error', param: 'service_tier' });
    expect(chat.message).toContain('budget');
    const responses = (await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, service_tier: 'priority', input: 'hi' }).catch((error: unknown) => error)) as OpenAIError;
    expect(responses.status).toBe(400);
    expect(responses.error).toMatchObject({ param: 'service_tier' });
    await nothingSentOrCharged(id, before);
  });

  it('is refused hosted tools billed per call (web search, code interpreter, chat web_search_options) with a 400 naming the tool', async () => {
    const { id, openai, anthropic } = await budgeted();
    const before = simulator.received;
    const search = (await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, tools: [{ type: 'web_search' }], input: 'news?' }).catch((error: unknown) => error)) as OpenAIError;
    expect(search.status).toBe(400);
    expect(search.error).toMatchObject({ param: 'tools[0]' });
    expect(search.message).toContain("'web_search'");
    const code = (await openai.responses
      .create({ model: 'tier-gpt', max_output_tokens: 16, tools: [{ type: 'function', name: 'f', parameters: {}, strict: false }, { type: 'code_interpreter', container: { type: 'auto' } }], input: 'run it' })
      .catch((error: unknown) => error)) as OpenAIError;
    expect(code.error).toMatchObject({ param: 'tools[1]' });
    const chatSearch = (await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, web_search_options: {}, messages: [{ role: 'user', content: 'news?' }] }).catch((error: unknown) => error)) as OpenAIError;
    expect(chatSearch.status).toBe(400);
    expect(chatSearch.error).toMatchObject({ param: 'web_search_options' });
    const messages = (await anthropic.messages
      .create({ model: 'flat-claude', max_tokens: 10, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }], messages: [{ role: 'user', content: 'news?' }] })
      .catch((error: unknown) => error)) as AnthropicError;
    expect(messages.status).toBe(400);
    expect(messages.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(messages.message).toContain("'web_search_20250305'");
    await nothingSentOrCharged(id, before);
  });

  it('is refused the context-1m beta on a model whose price has no long-context tier, and served it where the price has one', async () => {
    const { id, anthropic } = await budgeted();
    const before = simulator.received;
    const beta = { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14, context-1m-2025-08-07' } };
    const refused = (await anthropic.messages.create({ model: 'flat-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, beta).catch((error: unknown) => error)) as AnthropicError;
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('context-1m-2025-08-07');
    await nothingSentOrCharged(id, before);
    const served = await anthropic.messages.create({ model: 'tiered-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, beta);
    expect(served.content.length).toBeGreaterThan(0);
  });

  it("is served what the model's price covers: service_tier 'default' or 'flex', client tools, other betas", async () => {
    const { openai, anthropic } = await budgeted();
    await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, service_tier: 'flex', messages: [{ role: 'user', content: 'hi' }] });
    await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, service_tier: 'default', tools: [{ type: 'function', name: 'f', parameters: {}, strict: false }], input: 'hi' });
    await anthropic.messages.create({ model: 'flat-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } });
  });
});

describe('a key without a budget', () => {
  it("is served service_tier 'priority' and hosted tools: nothing it spends is kept to a limit", async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, {});
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, service_tier: 'priority', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices.length).toBe(1);
  });
});
