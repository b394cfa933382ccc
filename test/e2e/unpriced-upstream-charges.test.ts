import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGenerationCall, startSimulatorUpstream, type SimulatorUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/**
 * Parts of a request the vendor bills beyond the model's token price (a dearer service tier,
 * hosted tools billed per call, long-context rates) are invisible to the ledger on passthrough.
 * Where the catalog has no price for them, a key with a budget is refused them with a 400.
 */

let gateway: TestGateway;
let simulator: SimulatorUpstream;

const price = { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' };

beforeAll(async () => {
  simulator = await startSimulatorUpstream();
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
  expect(simulator.calls(isGenerationCall)).toBe(receivedBefore);
  await gateway.services.ledger.flush();
  expect(await gateway.services.storage.ledger.list({ keyId })).toEqual([]);
}

describe('a key with a budget', () => {
  it("is refused service_tier 'priority' on chat and Responses with a 400 naming service_tier, nothing sent or charged", async () => {
    const { id, openai } = await budgeted();
    const before = simulator.calls(isGenerationCall);
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
    const before = simulator.calls(isGenerationCall);
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
    const before = simulator.calls(isGenerationCall);
    const beta = { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14, context-1m-2025-08-07' } };
    const refused = (await anthropic.messages.create({ model: 'flat-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, beta).catch((error: unknown) => error)) as AnthropicError;
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('context-1m-2025-08-07');
    await nothingSentOrCharged(id, before);
    const served = await anthropic.messages.create({ model: 'tiered-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, beta);
    expect(served.content.length).toBeGreaterThan(0);
  });

  it("is refused chat audio output (modalities with 'audio', or an audio field) with a 400 naming the field, nothing sent or charged", async () => {
    const { id, openai } = await budgeted();
    const before = simulator.calls(isGenerationCall);
    const withModalities = (await openai.chat.completions
      .create({ model: 'tier-gpt', max_tokens: 10, modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' }, messages: [{ role: 'user', content: 'say hi' }] })
      .catch((error: unknown) => error)) as OpenAIError;
    expect(withModalities.status).toBe(400);
    expect(withModalities.error).toMatchObject({ type: 'invalid_request_error', param: 'modalities' });
    expect(withModalities.message).toContain('budget');
    const audioOnly = (await openai.chat.completions
      .create({ model: 'tier-gpt', max_tokens: 10, audio: { voice: 'alloy', format: 'mp3' }, messages: [{ role: 'user', content: 'say hi' }] })
      .catch((error: unknown) => error)) as OpenAIError;
    expect(audioOnly.status).toBe(400);
    expect(audioOnly.error).toMatchObject({ param: 'audio' });
    await nothingSentOrCharged(id, before);
  });

  it('is refused a background Responses call, which generates on upstream after the stream is cut, with a 400 naming background', async () => {
    const { id, openai } = await budgeted();
    const before = simulator.calls(isGenerationCall);
    const refused = (await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, background: true, input: 'hi' }).catch((error: unknown) => error)) as OpenAIError;
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', param: 'background' });
    const streamed = (await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, background: true, stream: true, input: 'hi' }).catch((error: unknown) => error)) as OpenAIError;
    expect(streamed.status).toBe(400);
    expect(streamed.error).toMatchObject({ param: 'background' });
    await nothingSentOrCharged(id, before);
  });

  it('is refused a stored prompt or a server-side conversation on Responses, whose input the body does not hold, with a 400 naming the field', async () => {
    const { id, openai } = await budgeted();
    const before = simulator.calls(isGenerationCall);
    const prompt = (await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, prompt: { id: 'pmpt_0123', variables: { city: 'Paris' } } }).catch((error: unknown) => error)) as OpenAIError;
    expect(prompt.status).toBe(400);
    expect(prompt.error).toMatchObject({ type: 'invalid_request_error', param: 'prompt' });
    const conversation = (await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, conversation: 'conv_0123', input: 'and then?' }).catch((error: unknown) => error)) as OpenAIError;
    expect(conversation.status).toBe(400);
    expect(conversation.error).toMatchObject({ param: 'conversation' });
    const conversationObject = (await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, conversation: { id: 'conv_0123' }, input: 'and then?' }).catch((error: unknown) => error)) as OpenAIError;
    expect(conversationObject.error).toMatchObject({ param: 'conversation' });
    await nothingSentOrCharged(id, before);
  });

  it("is refused a Messages service_tier other than 'auto' or 'standard_only' (a tier that may cost more) with a 400 naming service_tier", async () => {
    const { id, anthropic } = await budgeted();
    const before = simulator.calls(isGenerationCall);
    const body = { model: 'flat-claude', max_tokens: 10, service_tier: 'priority', messages: [{ role: 'user', content: 'hi' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    const refused = (await anthropic.messages.create(body).catch((error: unknown) => error)) as AnthropicError;
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(refused.message).toContain('service_tier');
    await nothingSentOrCharged(id, before);
  });

  it("is refused Messages fast mode (speed 'fast') and US-only inference (inference_geo 'us'), both billed above the model's price, with a 400 naming the field", async () => {
    const { id, anthropic } = await budgeted();
    const before = simulator.calls(isGenerationCall);
    for (const [field, value] of [['speed', 'fast'], ['inference_geo', 'us']] as const) {
      const body = { model: 'flat-claude', max_tokens: 10, [field]: value, messages: [{ role: 'user', content: 'hi' }] } as Anthropic.MessageCreateParamsNonStreaming;
      const refused = (await anthropic.messages.create(body).catch((error: unknown) => error)) as AnthropicError;
      expect(refused.status).toBe(400);
      expect(refused.message).toContain(field);
      expect(refused.message).toContain('budget');
    }
    await nothingSentOrCharged(id, before);
  });

  it("is served what the model's price covers: service_tier 'default' or 'flex', client tools, other betas", async () => {
    const { openai, anthropic } = await budgeted();
    await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, service_tier: 'flex', messages: [{ role: 'user', content: 'hi' }] });
    await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, service_tier: 'default', tools: [{ type: 'function', name: 'f', parameters: {}, strict: false }], input: 'hi' });
    await anthropic.messages.create({ model: 'flat-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } });
    // Anthropic's two tiers are billed at the model's price: 'auto' draws on capacity the
    // organisation committed to beforehand, 'standard_only' never does.
    for (const tier of ['auto', 'standard_only'] as const) {
      await anthropic.messages.create({ model: 'flat-claude', max_tokens: 10, service_tier: tier, messages: [{ role: 'user', content: 'hi' }] });
    }
    await anthropic.messages.create({ model: 'flat-claude', max_tokens: 10, speed: 'standard', inference_geo: 'global', messages: [{ role: 'user', content: 'hi' }] });
    await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, modalities: ['text'], messages: [{ role: 'user', content: 'hi' }] });
    await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, background: false, input: 'hi' });
  });
});

describe('a key without a budget', () => {
  it("is served service_tier 'priority' and hosted tools: nothing it spends is kept to a limit", async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, {});
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, service_tier: 'priority', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices.length).toBe(1);
  });

  it('is served audio output, background calls, stored prompts, conversations and any Messages service_tier: each goes upstream as sent', async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, {});
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const before = simulator.calls(isGenerationCall);
    const audio = await openai.chat.completions.create({ model: 'tier-gpt', max_tokens: 10, modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' }, messages: [{ role: 'user', content: 'say hi' }] });
    expect(audio.choices.length).toBe(1);
    const background = await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, background: true, input: 'hi' });
    expect(background.object).toBe('response');
    await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, prompt: { id: 'pmpt_0123' }, input: 'hi' });
    await openai.responses.create({ model: 'tier-gpt', max_output_tokens: 16, conversation: 'conv_0123', input: 'hi' });
    const body = { model: 'flat-claude', max_tokens: 10, service_tier: 'priority', messages: [{ role: 'user', content: 'hi' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    await anthropic.messages.create(body);
    expect(simulator.calls(isGenerationCall)).toBe(before + 5);
  });
});
