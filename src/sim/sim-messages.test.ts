import Anthropic from '@anthropic-ai/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { anthropicSimulatorClient, collapseRuns, parseSse, postJson, useSimulator, weatherSchema } from './sim.test-support.js';

const sim = useSimulator();
let client: Anthropic;

beforeAll(() => {
  client = anthropicSimulatorClient(sim);
});

const weatherTool = { name: 'get_weather', description: 'Weather', input_schema: weatherSchema() as Anthropic.Tool.InputSchema };

describe('simulator: Anthropic Messages', () => {
  it('returns a message with text, end_turn and usage', async () => {
    const message = await client.messages.create({
      model: 'claude-sim',
      max_tokens: 1024,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'hello claude' }],
    });
    expect(message.type).toBe('message');
    expect(message.content).toEqual([{ type: 'text', text: 'You said: hello claude' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBe(Math.ceil(('You are terse.'.length + 'hello claude'.length) / 4));
    expect(message.usage.output_tokens).toBe(4);
  });

  it('streams named events that messages.stream().finalMessage() assembles', async () => {
    const final = await client.messages.stream({
      model: 'claude-sim',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'stream to me' }],
    }).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'You said: stream to me' }]);
    expect(final.usage.output_tokens).toBe(5);

    const response = await postJson(`${sim.url}/v1/messages`, {
      model: 'claude-sim',
      max_tokens: 1024,
      stream: true,
      messages: [{ role: 'user', content: 'stream to me' }],
    });
    const events = parseSse(await response.text());
    for (const event of events) expect(JSON.parse(event.data).type).toBe(event.event);
    expect(collapseRuns(events.map((event) => event.event ?? ''))).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('streams a signed thinking block, then a tool_use block with input_json_delta fragments', async () => {
    const stream = client.messages.stream({
      model: 'claude-sim',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'what is the weather [tool]' }],
    });
    const partials: string[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') partials.push(event.delta.partial_json);
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    const [thinking, toolUse] = final.content;
    expect(thinking?.type === 'thinking' ? thinking.thinking : undefined).toBe('Thinking about: what is the weather');
    expect(thinking?.type === 'thinking' ? thinking.signature : undefined).toMatch(/^sim-signature-[0-9a-f]{16}$/);
    expect(toolUse?.type === 'tool_use' ? [toolUse.name, toolUse.input] : undefined).toEqual([
      'get_weather',
      { location: 'sim', days: 1, metric: true },
    ]);
    expect(partials.length).toBeGreaterThanOrEqual(3);
    expect(final.usage.output_tokens).toBeGreaterThan(5);
  });

  it('answers a tool_result with text, keeping thinking when it was asked for', async () => {
    const request = {
      model: 'claude-sim',
      max_tokens: 4096,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      tools: [weatherTool],
    };
    const first = await client.messages.create({ ...request, messages: [{ role: 'user', content: 'weather [tool]' }] });
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    expect(toolUse).toBeDefined();
    const second = await client.messages.create({
      ...request,
      messages: [
        { role: 'user', content: 'weather [tool]' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: toolUse?.type === 'tool_use' ? toolUse.id : '', content: 'foggy' }],
        },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(second.content[1]).toEqual({ type: 'text', text: 'Tool result: foggy' });
  });

  it('accepts the ?beta=true query Claude Code adds', async () => {
    const response = await postJson(`${sim.url}/v1/messages?beta=true`, {
      model: 'claude-sim',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'beta' }],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toMatch(/^req_sim\d{6}$/);
  });

  it('counts tokens exactly as a message reports its input tokens', async () => {
    const body = {
      model: 'claude-sim',
      system: 'system prompt text',
      tools: [weatherTool],
      messages: [{ role: 'user' as const, content: 'count me in' }],
    };
    const counted = await client.messages.countTokens(body);
    const message = await client.messages.create({ ...body, max_tokens: 100 });
    expect(counted.input_tokens).toBe(message.usage.input_tokens);
    expect(counted.input_tokens).toBeGreaterThan(Math.ceil(('system prompt text' + 'count me in').length / 4));
  });

  it('raises the SDK error for a simulated overload with the Anthropic error body', async () => {
    const failure = await client.messages
      .create({ model: 'claude-sim', max_tokens: 10, messages: [{ role: 'user', content: 'busy? [error:529]' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    const apiError = failure as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(529);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });

  it('stops for max_tokens on [length] and when max_tokens is smaller than the answer', async () => {
    const directed = await client.messages.create({
      model: 'claude-sim',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'limit [length]' }],
    });
    expect(directed.stop_reason).toBe('max_tokens');
    const limited = await client.messages.create({
      model: 'claude-sim',
      max_tokens: 2,
      messages: [{ role: 'user', content: 'a long answer would follow' }],
    });
    expect(limited.stop_reason).toBe('max_tokens');
    expect(limited.content).toEqual([{ type: 'text', text: 'You said:' }]);
    expect(limited.usage.output_tokens).toBe(2);
  });
});
