import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * The built-in simulator answers Azure OpenAI's path shapes, so an azure provider runs offline:
 * both forms through the gateway, and the simulator itself refusing what Azure refuses.
 */
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({
    providers: {
      'azure-v1': { type: 'azure', base_url: 'builtin:sim', api_key: 'any' },
      'azure-classic': { type: 'azure', base_url: 'builtin:sim', api_version: '2025-04-01-preview', api_key: 'any' },
    },
    models: [
      { id: 'azure-v1-gpt', routes: [{ provider: 'azure-v1', model: 'gpt-sim' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } },
      { id: 'azure-classic-gpt', routes: [{ provider: 'azure-classic', model: 'gpt-sim' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } },
    ],
  });
});
afterAll(() => gateway.close());

describe.each(['azure-v1-gpt', 'azure-classic-gpt'])('an azure provider on the simulator (%s)', (model) => {
  it('answers a chat client, streamed and not', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const answer = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] });
    expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(answer.usage?.prompt_tokens).toBeGreaterThan(0);
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
  });

  it('answers a Responses client and a Messages client', async () => {
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'k', maxRetries: 0 });
    expect((await openai.responses.create({ model, input: 'hello' })).output_text.length).toBeGreaterThan(0);
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'k', maxRetries: 0 });
    const message = await anthropic.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] });
    expect(message.content[0]).toMatchObject({ type: 'text' });
  });
});

describe('the simulator as an Azure resource', () => {
  it('answers the AzureOpenAI client on a deployment path, and refuses a classic path without api-version or a call without a key', async () => {
    const running = await startSimulator();
    const simulator = running.url;
    onTestFinished(() => running.close());
    const client = new AzureOpenAI({ endpoint: simulator, apiKey: 'any', apiVersion: '2024-10-21', deployment: 'gpt-sim', maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'gpt-sim', messages: [{ role: 'user', content: 'hello' }] });
    expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
    const withoutVersion = await fetch(`${simulator}/openai/deployments/gpt-sim/chat/completions`, { method: 'POST', headers: { 'api-key': 'any' }, body: '{}' });
    expect(withoutVersion.status).toBe(404);
    expect(await withoutVersion.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
    const withoutKey = await fetch(`${simulator}/openai/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(withoutKey.status).toBe(401);
  });
});
