import type OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAiSimulatorClient, postJson, sseJson, useSimulator, weatherSchema } from './sim.test-support.js';

const sim = useSimulator();
let client: OpenAI;

beforeAll(() => {
  client = openAiSimulatorClient(sim);
});

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather', parameters: weatherSchema() },
};

describe('simulator: OpenAI chat completions', () => {
  it('echoes the last user message without its directives', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-sim',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'hello there [pace:0]' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-sim');
    expect(completion.choices[0]?.message.content).toBe('You said: hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    const chars = 'Be brief.'.length + 'first question'.length + 'first answer'.length + 'hello there [pace:0]'.length;
    expect(completion.usage?.prompt_tokens).toBe(Math.ceil(chars / 4));
    expect(completion.usage?.completion_tokens).toBe(4);
    expect(completion.usage?.total_tokens).toBe(completion.usage!.prompt_tokens + 4);
  });

  it('streams a role chunk, word deltas, a finish chunk, a usage chunk and [DONE]', async () => {
    const response = await postJson(`${sim.url}/v1/chat/completions`, {
      model: 'gpt-sim',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'stream me please' }],
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const chunks = sseJson(text);
    const deltas = chunks.map((chunk) => (chunk.choices as Array<{ delta: Record<string, unknown> }>)[0]?.delta);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '', refusal: null });
    const contents = deltas.slice(1).map((delta) => delta?.content).filter((content) => typeof content === 'string');
    expect(contents).toEqual(['You', ' said:', ' stream', ' me', ' please']);
    const finish = chunks.at(-2)?.choices as Array<{ finish_reason: string }>;
    expect(finish[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toMatchObject({ completion_tokens: 5 });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('reports the same usage streamed and not streamed', async () => {
    const messages = [{ role: 'user' as const, content: 'count these tokens consistently' }];
    const plain = await client.chat.completions.create({ model: 'gpt-sim', messages });
    const stream = await client.chat.completions.create({
      model: 'gpt-sim',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamedUsage: unknown;
    for await (const chunk of stream) if (chunk.usage) streamedUsage = chunk.usage;
    expect(streamedUsage).toEqual(plain.usage);
  });

  it('works with the SDK stream helper', async () => {
    const runner = client.chat.completions.stream({
      model: 'gpt-sim',
      messages: [{ role: 'user', content: 'helper test' }],
    });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('You said: helper test');
  });

  it('streams a tool call whose arguments arrive in at least three fragments', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-sim',
      stream: true,
      messages: [{ role: 'user', content: 'weather please [tool]' }],
      tools: [weatherTool],
    });
    const fragments: string[] = [];
    let name: string | undefined;
    let finishReason: string | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      for (const call of choice?.delta.tool_calls ?? []) {
        expect(call.index).toBe(0);
        if (call.function?.name) name = call.function.name;
        if (call.function?.arguments) fragments.push(call.function.arguments);
      }
      if (choice?.finish_reason) finishReason = choice.finish_reason;
    }
    expect(name).toBe('get_weather');
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(fragments.join(''))).toEqual({ location: 'sim', days: 1, metric: true });
    expect(finishReason).toBe('tool_calls');
  });

  it('assembles parallel tool calls with the stream helper', async () => {
    const runner = client.chat.completions.stream({
      model: 'gpt-sim',
      messages: [{ role: 'user', content: 'two at once [tools:2]' }],
      tools: [weatherTool, { type: 'function', function: { name: 'Bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }],
    });
    const completion = await runner.finalChatCompletion();
    const calls = completion.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => (call.type === 'function' ? call.function.name : ''))).toEqual(['get_weather', 'Bash']);
    const bash = calls[1];
    expect(bash?.type === 'function' ? JSON.parse(bash.function.arguments) : undefined).toEqual({ command: 'echo sim-tool-ran' });
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
  });

  it('answers a tool result with text instead of calling the tool again', async () => {
    const first = await client.chat.completions.create({
      model: 'gpt-sim',
      messages: [{ role: 'user', content: 'weather [tool]' }],
      tools: [weatherTool],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call).toBeDefined();
    const second = await client.chat.completions.create({
      model: 'gpt-sim',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'weather [tool]' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call!.id, content: 'sunny, 21 degrees' },
      ],
    });
    expect(second.choices[0]?.message.tool_calls).toBeUndefined();
    expect(second.choices[0]?.message.content).toBe('Tool result: sunny, 21 degrees');
    expect(second.choices[0]?.finish_reason).toBe('stop');
  });

  it('explains instead of calling when the request has no tools', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-sim',
      messages: [{ role: 'user', content: '[tool]' }],
    });
    expect(completion.choices[0]?.message.content).toBe('You asked for a tool call, but the request has no tools.');
  });

  it('calls the tool a forced tool_choice names, without a directive', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-sim',
      messages: [{ role: 'user', content: 'no directive here' }],
      tools: [weatherTool, { type: 'function', function: { name: 'other', parameters: { type: 'object', properties: {} } } }],
      tool_choice: { type: 'function', function: { name: 'other' } },
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function : undefined).toEqual({ name: 'other', arguments: '{}' });
  });

  it('streams reasoning_content first and counts reasoning tokens when reasoning is asked for', async () => {
    const plain = await client.chat.completions.create({
      model: 'gpt-sim',
      reasoning_effort: 'low',
      messages: [{ role: 'user', content: 'ponder this' }],
    });
    const message = plain.choices[0]?.message as unknown as Record<string, unknown>;
    expect(message.reasoning_content).toBe('Thinking about: ponder this');
    expect(plain.usage?.completion_tokens_details?.reasoning_tokens).toBe(4);
    expect(plain.usage?.completion_tokens).toBe(4 + 4);
  });
});
