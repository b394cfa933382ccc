import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway;
let client: Anthropic;

beforeAll(async () => {
  gateway = await startTestGateway(defaultConfig({}));
  client = new Anthropic({ baseURL: gateway.url, apiKey: 'unused-open-access', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});

const bashTool = {
  name: 'Bash',
  description: 'Run a shell command',
  input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' as const, properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
};

describe.each(['sim-gpt', 'sim-claude', 'sim-gemini'])('messages clients against the simulator as %s', (model) => {
  it('answers a plain message with usage', async () => {
    const message = await client.messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: 'hello there' }] });
    expect(message.type).toBe('message');
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toContain('hello there');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams a tool round trip with the stream helper', async () => {
    const first = await client.messages
      .stream({ model, max_tokens: 256, tools: [bashTool], messages: [{ role: 'user', content: 'list files [tool:Bash]' }] })
      .finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: 'echo sim-tool-ran' } });
    const second = await client.messages
      .stream({
        model,
        max_tokens: 256,
        tools: [bashTool],
        messages: [
          { role: 'user', content: 'list files [tool:Bash]' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse!.type === 'tool_use' ? toolUse!.id : '', content: 'sim-tool-ran\n' }] },
        ],
      })
      .finalMessage();
    expect(second.content.find((block) => block.type === 'text')).toMatchObject({ text: expect.stringContaining('sim-tool-ran') });
    expect(second.usage.output_tokens).toBeGreaterThan(0);
  });

  it('counts tokens', async () => {
    const counted = await client.messages.countTokens({ model, messages: [{ role: 'user', content: 'count these words please' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });
});

describe('messages errors', () => {
  it('requires max_tokens and points OpenAI-style bodies to chat completions', async () => {
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'sim-claude', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('/v1/chat/completions');
  });

  it('refuses a malformed anthropic-version and answers unknown paths in the Anthropic shape', async () => {
    const badVersion = await fetch(`${gateway.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': 'yesterday' },
      body: JSON.stringify({ model: 'sim-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(badVersion.status).toBe(400);
    expect(((await badVersion.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    const unknown = await fetch(`${gateway.url}/v1/messages/nope`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});

describe('content the gateway cannot translate', () => {
  it('still reaches a same-format upstream, and is refused clearly where translation is needed', async () => {
    const body = {
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }, { type: 'search_result_from_the_future', source: 'x' }] }],
    };
    const send = (model: string): Promise<Response> =>
      fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model, ...body }),
      });
    const passedThrough = await send('sim-claude');
    expect(passedThrough.status).toBe(200);
    const translated = await send('sim-gpt');
    expect(translated.status).toBe(400);
    expect(await translated.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('search_result_from_the_future') } });
  });
});
