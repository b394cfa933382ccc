import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway(defaultConfig({}));
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-open-access', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe.each(['sim-gpt', 'sim-claude', 'sim-gemini'])('chat completions against the simulator as %s', (model) => {
  it('answers a plain completion with non-zero usage', async () => {
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello there' }] });
    expect(completion.choices[0]?.message.content).toContain('hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
    expect(completion.model).toBe(model);
  });

  it('streams text with the stream helper and reports usage', async () => {
    const stream = client.chat.completions.stream({
      model,
      messages: [{ role: 'user', content: 'stream me please' }],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toContain('stream me please');
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams parallel tool calls with arguments fragmented across chunks', async () => {
    const stream = client.chat.completions.stream({
      model,
      messages: [{ role: 'user', content: 'weather please [tools:2]' }],
      tools: [weatherTool],
    });
    const final = await stream.finalChatCompletion();
    const calls = final.choices[0]?.message.tool_calls ?? [];
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.type).toBe('function');
      if (call.type !== 'function') continue;
      expect(call.function.name).toBe('get_weather');
      expect(JSON.parse(call.function.arguments)).toEqual({ city: 'sim' });
    }
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('completes a tool round trip', async () => {
    const first = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'weather [tool]' }],
      tools: [weatherTool],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call?.id).toBeTruthy();
    const second = await client.chat.completions.create({
      model,
      messages: [
        { role: 'user', content: 'weather [tool]' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call!.id, content: 'sunny, 21 degrees' },
      ],
      tools: [weatherTool],
    });
    expect(second.choices[0]?.message.content).toContain('sunny, 21 degrees');
  });
});
