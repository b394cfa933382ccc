/**
 * The simulator's bytes must look like the real APIs': these tests put its output next to the
 * recorded upstream fixtures and compare event order and field names.
 */
import { describe, expect, it } from 'vitest';
import { collapseRuns, postJson, readFixtureChunks, readFixtureJson, sseJson, useSimulator, weatherSchema } from './sim.test-support.js';

const sim = useSimulator();

type Json = Record<string, unknown>;

function keys(value: unknown): string[] {
  return typeof value === 'object' && value !== null ? Object.keys(value).sort() : [];
}

/** Every field the simulator sends must exist in the recording (the recording may have more). */
function expectKnownFields(simulated: unknown, recorded: unknown): void {
  expect(keys(simulated).filter((key) => !keys(recorded).includes(key))).toEqual([]);
}

function firstOfType(events: Json[], type: string): Json {
  const found = events.find((event) => event.type === type);
  if (found === undefined) throw new Error(`no ${type} event`);
  return found;
}

const typesOf = (events: Json[]): string[] => collapseRuns(events.map((event) => String(event.type)));

async function stream(path: string, body: Json): Promise<Json[]> {
  return sseJson(await (await postJson(`${sim.url}${path}`, { ...body, stream: true })).text());
}

describe('simulator bytes against recorded upstream fixtures', () => {
  it('chat chunks and usage carry the recorded OpenAI fields', async () => {
    const recorded = readFixtureChunks('openai/chat/openai-text.chunks.txt');
    const simulated = await stream('/v1/chat/completions', {
      model: 'gpt-sim',
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'compare me' }],
    });
    expectKnownFields(simulated[0], recorded[0]);
    expect((simulated[0]?.choices as Json[])[0]).toEqual({ ...(recorded[0]?.choices as Json[])[0], index: 0 });
    expect(keys((simulated.at(-1) as Json).usage)).toEqual(keys(recorded.at(-1)?.usage));
    const json = readFixtureJson('openai/chat/openai-text.json');
    const plain = (await (await postJson(`${sim.url}/v1/chat/completions`, { model: 'gpt-sim', messages: [{ role: 'user', content: 'x' }] })).json()) as Json;
    expect(keys(plain)).toEqual(keys(json));
    expect(keys((plain.choices as Json[])[0]?.message)).toEqual(keys((json.choices as Json[])[0]?.message));
  });

  it('chat tool-call deltas use the recorded first-fragment and later-fragment shapes', async () => {
    const recorded = readFixtureChunks('openai-compatible/chat/deepseek-tool-call.chunks.txt');
    const recordedCalls = recorded.flatMap((chunk) => ((chunk.choices as Json[])[0]?.delta as Json | undefined)?.tool_calls as Json[] ?? []);
    const simulated = await stream('/v1/chat/completions', {
      model: 'gpt-sim',
      messages: [{ role: 'user', content: '[tool]' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema() } }],
    });
    const simulatedCalls = simulated.flatMap((chunk) => ((chunk.choices as Json[])[0]?.delta as Json | undefined)?.tool_calls as Json[] ?? []);
    expect(keys(simulatedCalls[0])).toEqual(keys(recordedCalls[0]));
    expect(keys(simulatedCalls[1])).toEqual(keys(recordedCalls[1]));
  });

  it('Responses text and function-call streams follow the recorded event order and fields', async () => {
    for (const [fixture, body] of [
      ['openai/responses/azure-text.1.chunks.txt', { input: 'compare' }],
      ['openai/responses/azure-tool-call.1.chunks.txt', { input: '[tool]', tools: [{ type: 'function', name: 'weather', parameters: weatherSchema() }] }],
    ] as const) {
      const recorded = readFixtureChunks(fixture);
      const simulated = await stream('/v1/responses', { model: 'gpt-sim', ...body });
      expect(typesOf(simulated)).toEqual(typesOf(recorded));
      for (const event of simulated) {
        const counterpart = firstOfType(recorded, String(event.type));
        expectKnownFields(event, counterpart);
        if (event.item !== undefined) expectKnownFields(event.item, counterpart.item);
        if (event.part !== undefined) expect(keys(event.part)).toEqual(keys(counterpart.part));
      }
      const completed = firstOfType(simulated, 'response.completed').response as Json;
      const recordedCompleted = firstOfType(recorded, 'response.completed').response as Json;
      expectKnownFields(completed, recordedCompleted);
      expect(keys(completed.usage)).toEqual(keys(recordedCompleted.usage));
    }
  });

  it('Responses reasoning items follow the recorded summary event order', async () => {
    const recorded = readFixtureChunks('openai/responses/openai-reasoning-encrypted-content.1.chunks.txt');
    const firstStream = recorded.slice(0, recorded.findIndex((event, index) => index > 0 && event.type === 'response.created'));
    const recordedReasoning = typesOf(firstStream).slice(2, 8);
    const simulated = await stream('/v1/responses', { model: 'gpt-sim', input: 'why', reasoning: { effort: 'low', summary: 'auto' } });
    expect(typesOf(simulated).slice(2, 8)).toEqual(recordedReasoning);
    const added = firstOfType(simulated, 'response.output_item.added');
    expect(keys(added.item)).toEqual(keys(firstOfType(firstStream, 'response.output_item.added').item));
  });

  it('Anthropic streams follow the recorded event order, with thinking and tool_use blocks shaped alike', async () => {
    const text = await stream('/v1/messages', { model: 'claude-sim', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(typesOf(text)).toEqual(typesOf(readFixtureChunks('anthropic/messages/anthropic-text.chunks.txt')));

    const recordedThinking = readFixtureChunks('anthropic/messages/anthropic-clear-thinking.1.chunks.txt');
    const thinking = await stream('/v1/messages', {
      model: 'claude-sim',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(typesOf(thinking)).toEqual(typesOf(recordedThinking));
    const start = firstOfType(thinking, 'message_start').message as Json;
    const recordedStart = firstOfType(recordedThinking, 'message_start').message as Json;
    expect(keys(start)).toEqual(keys(recordedStart));
    expectKnownFields(start.usage, recordedStart.usage);
    const signature = thinking.find((event) => (event.delta as Json | undefined)?.type === 'signature_delta');
    expect(keys(signature?.delta)).toEqual(['signature', 'type']);
    expectKnownFields(firstOfType(thinking, 'message_delta').usage, firstOfType(recordedThinking, 'message_delta').usage);

    const recordedTool = readFixtureChunks('anthropic/messages/anthropic-json-tool.1.chunks.txt');
    const tool = await stream('/v1/messages', {
      model: 'claude-sim',
      max_tokens: 500,
      tools: [{ name: 'json', input_schema: weatherSchema() }],
      messages: [{ role: 'user', content: '[tool]' }],
    });
    expect(keys(firstOfType(tool, 'content_block_start').content_block)).toEqual(
      keys(firstOfType(recordedTool, 'content_block_start').content_block),
    );
    expect(firstOfType(tool, 'message_delta').delta).toEqual(firstOfType(recordedTool, 'message_delta').delta);
  });

  it('Gemini chunks carry the recorded fields and function-call part shape', async () => {
    const recordedText = readFixtureChunks('google/generate-content/google-text.chunks.txt');
    const text = await stream('/v1beta/models/gemini-sim:streamGenerateContent?alt=sse', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
    for (const chunk of text) {
      expect(keys(chunk)).toEqual(keys(recordedText[0]));
      expect(keys(chunk.usageMetadata)).toEqual(keys(recordedText[0]?.usageMetadata));
    }
    expect((text.at(-1)?.candidates as Json[])[0]).toMatchObject({ finishReason: 'STOP' });
    expect(keys(((text.at(-1)?.candidates as Json[])[0]?.content as Json).parts)).toEqual(
      keys(((recordedText.at(-1)?.candidates as Json[])[0]?.content as Json).parts),
    );

    const recordedTool = readFixtureJson('google/generate-content/google-tool-call.json');
    const tool = (await (await postJson(`${sim.url}/v1beta/models/gemini-sim:generateContent`, {
      contents: [{ role: 'user', parts: [{ text: '[tool]' }] }],
      tools: [{ functionDeclarations: [{ name: 'weather', parameters: weatherSchema() }] }],
    })).json()) as Json;
    const part = (((tool.candidates as Json[])[0]?.content as Json).parts as Json[])[0];
    const recordedPart = (((recordedTool.candidates as Json[])[0]?.content as Json).parts as Json[])[0];
    expect(keys(part)).toEqual(keys(recordedPart));
    expect(keys(part?.functionCall)).toEqual(keys(recordedPart?.functionCall));
  });
});
