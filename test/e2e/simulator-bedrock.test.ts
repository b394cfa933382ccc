import Anthropic from '@anthropic-ai/sdk';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { bashMessagesTool, expectChargedAtOneAndTwo, expectChatToolCalls, singleEntryOf } from '../support/simulated-cloud-calls.js';

/**
 * The built-in simulator speaks Bedrock Runtime, so a `type: bedrock` provider on `builtin:sim`
 * runs offline: Claude through InvokeModel (and its event stream), other models through Converse
 * and ConverseStream, CountTokens, each call signed (or carrying an API key) and metered.
 */
const claude = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const nova = 'amazon.nova-pro-v1:0';
const price = { input_per_mtok: '1.00', output_per_mtok: '2.00' };

let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  gateway = await startTestGateway({
    providers: {
      'bedrock-sim': { type: 'bedrock', base_url: 'builtin:sim', region: 'us-east-1' },
      'bedrock-sim-key': { type: 'bedrock', base_url: 'builtin:sim', region: 'eu-west-1', api_key: 'any-bedrock-api-key' },
    },
    models: [
      { id: 'claude-bedrock', routes: [{ provider: 'bedrock-sim', model: claude }], price },
      { id: 'nova-bedrock', routes: [{ provider: 'bedrock-sim', model: nova }], price },
      { id: 'nova-bedrock-key', routes: [{ provider: 'bedrock-sim-key', model: nova }], price },
    ],
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'k', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'k', maxRetries: 0 });
});
afterAll(() => gateway.close());

describe.each([
  { model: 'claude-bedrock', upstream: claude, provider: 'bedrock-sim' },
  { model: 'nova-bedrock', upstream: nova, provider: 'bedrock-sim' },
  { model: 'nova-bedrock-key', upstream: nova, provider: 'bedrock-sim-key' },
])('$model on the simulator', ({ model, upstream, provider }) => {
  it('answers a chat client, streamed and not, each call on the ledger at its price', async () => {
    const whole = await singleEntryOf(gateway, async () => {
      const answer = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello bedrock' }] });
      expect(answer.choices[0]?.message.content).toBe('You said: hello bedrock');
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage?.prompt_tokens).toBeGreaterThan(0);
    });
    expectChargedAtOneAndTwo(whole, provider, upstream);

    const streamed = await singleEntryOf(gateway, async () => {
      const stream = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello bedrock' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('You said: hello bedrock');
    });
    expectChargedAtOneAndTwo(streamed, provider, upstream);
    expect(streamed.inputUncached).toBe(whole.inputUncached);
    expect(streamed.output).toBe(whole.output);
  });

  it('answers a chat client with a tool call, streamed and not', async () => {
    await expectChatToolCalls(openai, model);
  });

  it('answers a Responses client, streamed and not', async () => {
    const entry = await singleEntryOf(gateway, async () => {
      const response = await openai.responses.create({ model, input: 'hello responses' });
      expect(response.output_text).toBe('You said: hello responses');
    });
    expectChargedAtOneAndTwo(entry, provider, upstream);
    const stream = openai.responses.stream({ model, input: 'hello responses' });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('You said: hello responses');
    expect((await stream.finalResponse()).status).toBe('completed');
  });

  it('answers a Messages client, streamed and not, with tools and thinking', async () => {
    const entry = await singleEntryOf(gateway, async () => {
      const message = await anthropic.messages.create({ model, max_tokens: 200, messages: [{ role: 'user', content: 'hello messages' }] });
      expect(message.content).toEqual([{ type: 'text', text: 'You said: hello messages' }]);
      expect(message.stop_reason).toBe('end_turn');
    });
    expectChargedAtOneAndTwo(entry, provider, upstream);

    const toolTurn = await anthropic.messages.create({ model, max_tokens: 200, tools: [bashMessagesTool], messages: [{ role: 'user', content: 'run it [tool]' }] });
    expect(toolTurn.stop_reason).toBe('tool_use');
    expect(toolTurn.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'Bash', input: { command: 'echo sim-tool-ran' } });

    // Claude is asked by `thinking`; Nova Pro takes no reasoning field, so the directive asks for it.
    const stream = anthropic.messages.stream({ model, max_tokens: 500, thinking: { type: 'enabled', budget_tokens: 200 }, messages: [{ role: 'user', content: 'think it over [think]' }] });
    const final = await stream.finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(final.content[0]).toMatchObject({ thinking: 'Thinking about: think it over' });
    expect(final.content[1]).toMatchObject({ text: 'You said: think it over' });
  });
});

describe('token counts through the simulator', () => {
  it('counts a Messages body for Claude through CountTokens, the same figure the call reports', async () => {
    const body = { model: 'claude-bedrock', messages: [{ role: 'user' as const, content: 'count these words for me' }] };
    const counted = await anthropic.messages.countTokens(body);
    const answered = await anthropic.messages.create({ ...body, max_tokens: 100 });
    expect(counted.input_tokens).toBe(answered.usage.input_tokens);
    expect(counted.input_tokens).toBeGreaterThan(1);
  });

  it('counts a Messages body for a Converse model', async () => {
    const counted = await anthropic.messages.countTokens({ model: 'nova-bedrock', messages: [{ role: 'user', content: 'count these words for me' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });
});

describe('the simulator as Bedrock Runtime', () => {
  async function simulator(): Promise<string> {
    const running = await startSimulator();
    onTestFinished(() => running.close());
    return running.url;
  }
  const signed = {
    'content-type': 'application/json',
    'x-amz-date': '20260101T000000Z',
    authorization: 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=' + 'a'.repeat(64),
  };
  const claudeBody = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };
  const at = (url: string, operation: string, model = claude): string => `${url}/model/${encodeURIComponent(model)}/${operation}`;

  it('refuses a call without a signature or with a malformed one, in Bedrock\'s error shape', async () => {
    const url = await simulator();
    const unsigned = await fetch(at(url, 'invoke'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(claudeBody) });
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toMatch(/^MissingAuthenticationTokenException/);
    expect(await unsigned.json()).toEqual({ message: 'Missing Authentication Token' });

    const malformed = await fetch(at(url, 'invoke'), { method: 'POST', headers: { ...signed, authorization: 'AWS4-HMAC-SHA256 Credential=AKID' }, body: JSON.stringify(claudeBody) });
    expect(malformed.status).toBe(403);
    expect(malformed.headers.get('x-amzn-errortype')).toMatch(/^IncompleteSignatureException/);

    const wrongService = await fetch(at(url, 'invoke'), { method: 'POST', headers: { ...signed, authorization: signed.authorization.replace('/bedrock/', '/s3/') }, body: JSON.stringify(claudeBody) });
    expect(wrongService.status).toBe(403);
    expect(wrongService.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException/);
  });

  it('refuses an InvokeModel body Bedrock would refuse, and a simulated throttle, with x-amzn-errortype', async () => {
    const url = await simulator();
    const withModel = await fetch(at(url, 'invoke'), { method: 'POST', headers: signed, body: JSON.stringify({ ...claudeBody, model: 'x' }) });
    expect(withModel.status).toBe(400);
    expect(withModel.headers.get('x-amzn-errortype')).toMatch(/^ValidationException/);
    expect(((await withModel.json()) as { message: string }).message).toContain('extraneous key [model]');
    const withoutVersion = await fetch(at(url, 'invoke'), { method: 'POST', headers: signed, body: JSON.stringify({ ...claudeBody, anthropic_version: undefined }) });
    expect(withoutVersion.status).toBe(400);

    const throttled = await fetch(at(url, 'converse', nova), { method: 'POST', headers: signed, body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi [error:429]' }] }] }) });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('x-amzn-errortype')).toMatch(/^ThrottlingException/);
    expect(await throttled.json()).toEqual({ message: 'Simulated error: status 429 was requested.' });
  });

  it('streams InvokeModel as AWS event-stream chunk frames holding the Anthropic events, and Converse as named events', async () => {
    const url = await simulator();
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const decode = async (response: Response): Promise<{ type: string; payload: Record<string, unknown> }[]> => {
      let bytes = new Uint8Array(await response.arrayBuffer());
      const frames: { type: string; payload: Record<string, unknown> }[] = [];
      while (bytes.byteLength > 0) {
        const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
        const message = codec.decode(bytes.subarray(0, length));
        frames.push({ type: String(message.headers[':event-type']?.value), payload: JSON.parse(toUtf8(message.body)) as Record<string, unknown> });
        bytes = bytes.subarray(length);
      }
      return frames;
    };

    const invoked = await fetch(at(url, 'invoke-with-response-stream'), { method: 'POST', headers: { ...signed, 'x-amzn-bedrock-accept': 'application/json' }, body: JSON.stringify(claudeBody) });
    expect(invoked.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const chunks = await decode(invoked);
    expect(chunks.every((frame) => frame.type === 'chunk')).toBe(true);
    const events = chunks.map((frame) => JSON.parse(Buffer.from(String(frame.payload.bytes), 'base64').toString('utf8')) as { type: string });
    expect(events[0]?.type).toBe('message_start');
    expect(events.at(-1)).toMatchObject({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: expect.any(Number) as number, outputTokenCount: expect.any(Number) as number } });

    const conversed = await fetch(at(url, 'converse-stream', nova), { method: 'POST', headers: signed, body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] }) });
    const names = (await decode(conversed)).map((frame) => frame.type);
    expect(names).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);
  });

  it('answers Converse in its shape, with usage, cache figures and latency', async () => {
    const url = await simulator();
    const answer = await fetch(at(url, 'converse', nova), { method: 'POST', headers: { authorization: 'Bearer any-key' }, body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hello [cache:2]' }] }] }) });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      output: { message: { role: 'assistant', content: [{ text: 'You said: hello' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: expect.any(Number) as number, outputTokens: 3, totalTokens: expect.any(Number) as number, cacheReadInputTokens: 0, cacheWriteInputTokens: 2 },
      metrics: { latencyMs: expect.any(Number) as number },
    });
  });
});
