import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { postJson, useSimulator, weatherSchema } from '../sim.test-support.js';

const sim = useSimulator();
const nova = 'amazon.nova-pro-v1:0';
const apiKey = { authorization: 'Bearer sim-bedrock-key' };
const converse = (operation: string, body: unknown) => postJson(`${sim.url}/model/${encodeURIComponent(nova)}/${operation}`, body, apiKey);
const userTurn = (text: string) => ({ role: 'user', content: [{ text }] });
const weatherTools = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: weatherSchema() } } }] };

interface Frame {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/** The event-stream frames of a ConverseStream answer, each payload without Bedrock's padding. */
async function frames(response: Response): Promise<Frame[]> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let bytes = new Uint8Array(await response.arrayBuffer());
  const decoded: Frame[] = [];
  while (bytes.byteLength > 0) {
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
    const message = codec.decode(bytes.subarray(0, length));
    const { p: _padding, ...payload } = JSON.parse(toUtf8(message.body)) as Record<string, unknown>;
    decoded.push({ type: String(message.headers[':event-type']?.value), payload });
    bytes = bytes.subarray(length);
  }
  return decoded;
}

describe('simulator: Bedrock Converse', () => {
  it('calls a tool from its schema, and answers the tool result in text', async () => {
    const call = (await (await converse('converse', { messages: [userTurn('weather? [tool]')], toolConfig: weatherTools })).json()) as Record<string, unknown>;
    expect(call).toMatchObject({
      output: { message: { role: 'assistant', content: [{ toolUse: { name: 'get_weather', input: { location: 'sim', days: 1, metric: true } } }] } },
      stopReason: 'tool_use',
    });
    const toolUse = (call as { output: { message: { content: [{ toolUse: { toolUseId: string } }] } } }).output.message.content[0].toolUse;
    const answer = await converse('converse', {
      messages: [
        userTurn('weather? [tool]'),
        { role: 'assistant', content: [{ toolUse: { toolUseId: toolUse.toolUseId, name: 'get_weather', input: {} } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: toolUse.toolUseId, content: [{ json: { celsius: 21 } }] } }] },
      ],
      toolConfig: weatherTools,
    });
    expect(await answer.json()).toMatchObject({ output: { message: { content: [{ text: 'Tool result: {"celsius":21}' }] } }, stopReason: 'end_turn' });
  });

  it('streams a tool call as contentBlockStart with its id and name, then input fragments', async () => {
    const events = await frames(await converse('converse-stream', { messages: [userTurn('weather? [tool]')], toolConfig: weatherTools }));
    expect(events[1]).toEqual({ type: 'contentBlockStart', payload: { contentBlockIndex: 0, start: { toolUse: { toolUseId: expect.stringMatching(/^tooluse_sim\d{6}_0$/) as string, name: 'get_weather' } } } });
    const input = events.filter((event) => event.type === 'contentBlockDelta').map((event) => (event.payload.delta as { toolUse: { input: string } }).toolUse.input).join('');
    expect(JSON.parse(input)).toEqual({ location: 'sim', days: 1, metric: true });
    expect(events.slice(-2).map((event) => event.payload)).toMatchObject([{ stopReason: 'tool_use' }, { usage: { outputTokens: expect.any(Number) as number } }]);
  });

  it('reasons first when a model family asks for it, with a signature', async () => {
    const body = { messages: [userTurn('why')], additionalModelRequestFields: { reasoningConfig: { type: 'enabled', maxReasoningEffort: 'low' } } };
    const whole = (await (await converse('converse', body)).json()) as { output: { message: { content: unknown[] } } };
    expect(whole.output.message.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'Thinking about: why', signature: expect.stringMatching(/^sim-signature-[0-9a-f]{16}$/) as string } } },
      { text: 'You said: why' },
    ]);
    const events = await frames(await converse('converse-stream', body));
    const reasoning = events.filter((event) => event.type === 'contentBlockDelta' && event.payload.contentBlockIndex === 0).map((event) => event.payload.delta);
    expect(reasoning.at(-1)).toEqual({ reasoningContent: { signature: expect.stringMatching(/^sim-signature-/) as string } });
  });

  it('stops for length at inferenceConfig.maxTokens, and streams the usage the whole answer reports', async () => {
    const body = { messages: [userTurn('one two three four five six')], inferenceConfig: { maxTokens: 2 } };
    const whole = (await (await converse('converse', body)).json()) as { stopReason: string; usage: unknown };
    expect(whole.stopReason).toBe('max_tokens');
    const events = await frames(await converse('converse-stream', body));
    expect(events.at(-1)?.payload.usage).toEqual(whole.usage);
  });

  it('counts a Converse body as the call counts it', async () => {
    const body = { system: [{ text: 'be brief' }], messages: [userTurn('count me in')] };
    const answered = (await (await converse('converse', body)).json()) as { usage: { inputTokens: number } };
    const counted = await converse('count-tokens', { input: { converse: body } });
    expect(await counted.json()).toEqual({ inputTokens: answered.usage.inputTokens });
  });
});
