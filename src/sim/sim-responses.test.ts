import type OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { collapseRuns, openAiSimulatorClient, postJson, sseJson, useSimulator, weatherSchema } from './sim.test-support.js';

const sim = useSimulator();
let client: OpenAI;

beforeAll(() => {
  client = openAiSimulatorClient(sim);
});

const weatherTool = { type: 'function' as const, name: 'get_weather', parameters: weatherSchema(), strict: false };

async function rawEvents(body: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const response = await postJson(`${sim.url}/v1/responses`, { ...body, stream: true });
  return sseJson(await response.text());
}

describe('simulator: OpenAI Responses', () => {
  it('returns a response object the SDK turns into output_text', async () => {
    const response = await client.responses.create({ model: 'gpt-sim', input: 'hi responses', instructions: 'Be kind.' });
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('You said: hi responses');
    expect(response.instructions).toBe('Be kind.');
    const characters = 'Be kind.'.length + 'hi responses'.length;
    expect(response.usage).toMatchObject({ input_tokens: Math.ceil(characters / 4), output_tokens: 4 });
  });

  it('streams the full text event sequence with increasing sequence numbers', async () => {
    const events = await rawEvents({ model: 'gpt-sim', input: [{ role: 'user', content: 'stream text' }] });
    expect(collapseRuns(events.map((event) => String(event.type)))).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta);
    expect(deltas).toEqual(['You', ' said:', ' stream', ' text']);
  });

  it('gives the same usage streamed and not streamed', async () => {
    const input = [{ role: 'user' as const, content: 'same usage both ways' }];
    const plain = await client.responses.create({ model: 'gpt-sim', input });
    const final = await client.responses.stream({ model: 'gpt-sim', input }).finalResponse();
    expect(final.usage).toEqual(plain.usage);
    expect(final.output_text).toBe(plain.output_text);
  });

  it('streams a function call with fragmented argument deltas', async () => {
    const events = await rawEvents({ model: 'gpt-sim', input: 'weather [tool:get_weather]', tools: [weatherTool] });
    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => String(event.delta));
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    const done = events.find((event) => event.type === 'response.function_call_arguments.done');
    expect(done?.arguments).toBe(deltas.join(''));
    expect(JSON.parse(deltas.join(''))).toEqual({ location: 'sim', days: 1, metric: true });

    const final = await client.responses.stream({ model: 'gpt-sim', input: 'weather [tool]', tools: [weatherTool] }).finalResponse();
    const call = final.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' ? [call.name, call.status, call.call_id.startsWith('call_')] : []).toEqual([
      'get_weather',
      'completed',
      true,
    ]);
  });

  it('emits a reasoning item with summary events and encrypted_content before the answer', async () => {
    const events = await rawEvents({ model: 'gpt-sim', input: 'deep thought', reasoning: { effort: 'high', summary: 'auto' } });
    const types = collapseRuns(events.map((event) => String(event.type)));
    expect(types.slice(2, 9)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
    ]);
    const completed = events.at(-1)?.response as { output: Array<Record<string, unknown>>; usage: Record<string, unknown> };
    const reasoning = completed.output[0];
    expect(reasoning?.type).toBe('reasoning');
    expect(reasoning?.encrypted_content).toMatch(/^sim-signature-[0-9a-f]{16}$/);
    expect(reasoning?.summary).toEqual([{ type: 'summary_text', text: 'Thinking about: deep thought' }]);
    expect(completed.usage.output_tokens_details).toEqual({ reasoning_tokens: 4 });
  });

  it('streams reasoning then a function call that the SDK stream helper accepts', async () => {
    const final = await client.responses
      .stream({ model: 'gpt-sim', input: 'plan it [tool]', tools: [weatherTool], reasoning: { effort: 'medium' }, store: false })
      .finalResponse();
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(4);
    expect((final as unknown as { store: boolean }).store).toBe(false);
  });

  it('answers a function_call_output with text so agent loops end', async () => {
    const first = await client.responses.create({ model: 'gpt-sim', input: 'weather [tool]', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toBeDefined();
    const second = await client.responses.create({
      model: 'gpt-sim',
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'weather [tool]' },
        ...(call ? [call] : []),
        { type: 'function_call_output', call_id: call?.type === 'function_call' ? call.call_id : '', output: 'rainy' },
      ],
    });
    expect(second.output.some((item) => item.type === 'function_call')).toBe(false);
    expect(second.output_text).toBe('Tool result: rainy');
  });

  it('ends with response.incomplete and max_output_tokens for [length]', async () => {
    const events = await rawEvents({ model: 'gpt-sim', input: 'cut me off [length]' });
    const last = events.at(-1) as { type: string; response: Record<string, unknown> };
    expect(last.type).toBe('response.incomplete');
    expect(last.response.status).toBe('incomplete');
    expect(last.response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });
});
