import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConverseText } from '../support/fake-bedrock/default-answers.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

const nova = 'us.amazon.nova-pro-v1:0';
const llama = 'meta.llama3-3-70b-instruct-v1:0';
let bedrock: FakeBedrock;
let backup: FakeBedrock;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  bedrock = await startFakeBedrock();
  backup = await startFakeBedrock({ region: 'us-west-2' });
  const keys = (fake: FakeBedrock) => ({ access_key_id: fake.secret.accessKeyId, secret_access_key: fake.secret.secretAccessKey });
  gateway = await startTestGateway({
    routing: { attempts_per_route: 1 },
    providers: {
      bedrock: { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, ...keys(bedrock) },
      'bedrock-west': { type: 'bedrock', region: 'us-west-2', base_url: backup.url, ...keys(backup) },
    },
    models: [
      { id: 'nova-pro', routes: [{ provider: 'bedrock', model: nova }] },
      { id: 'llama-bedrock', routes: [{ provider: 'bedrock', model: llama }] },
      { id: 'nova-then-west', routes: [{ provider: 'bedrock', model: nova }, { provider: 'bedrock-west', model: nova }] },
    ],
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'any', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await bedrock.close();
  await backup.close();
});

const question = [{ role: 'user' as const, content: 'Say hello.' }];
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
/** The Converse body Bedrock received last. */
const sentBody = (): Record<string, unknown> => JSON.parse(bedrock.requests.at(-1)?.bodyText ?? '{}') as Record<string, unknown>;

describe('a chat client meets a model Bedrock serves through Converse', () => {
  it('is answered through a signed Converse call with the Converse body, and metered', async () => {
    const entriesBefore = (await gateway.services.storage.ledger.list({ limit: 1_000 })).length;
    const completion = await openai.chat.completions.create({ model: 'nova-pro', messages: [{ role: 'system', content: 'Be brief.' }, ...question], max_tokens: 50, temperature: 0.2 });
    expect(completion.choices[0]?.message.content).toBe(defaultConverseText);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 });
    const sent = bedrock.requests.at(-1);
    expect(sent?.path).toBe(`/model/${encodeURIComponent(nova)}/converse`);
    expect(sent?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEBEDROCK0001\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    expect(sentBody()).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Say hello.' }] }],
      system: [{ text: 'Be brief.' }],
      inferenceConfig: { maxTokens: 50, temperature: 0.2 },
    });
    expect(bedrock.refused).toEqual([]);
    const entry = await waitForLedgerEntry(gateway, entriesBefore + 1);
    expect(entry).toMatchObject({ provider: 'bedrock', upstreamModel: nova, inputUncached: 9, output: 5, usageEstimated: false });
  });

  it('streams a chat completion from ConverseStream\'s event stream', async () => {
    const stream = openai.chat.completions.stream({ model: 'llama-bedrock', messages: question, max_tokens: 50, stream_options: { include_usage: true } });
    const chunks: string[] = [];
    stream.on('content', (delta) => chunks.push(delta));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(defaultConverseText);
    expect(chunks.join('')).toBe(defaultConverseText);
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${encodeURIComponent(llama)}/converse-stream`);
  });

  it('sends tools as a toolConfig and hands back Converse\'s toolUse as a tool call', async () => {
    bedrock.script({
      kind: 'converse',
      body: {
        output: { message: { role: 'assistant', content: [{ text: 'Checking.' }, { toolUse: { toolUseId: 'tooluse_nova_1', name: 'get_weather', input: { city: 'Paris' } } }] } },
        stopReason: 'tool_use',
        usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
      },
    });
    const completion = await openai.chat.completions.create({ model: 'nova-pro', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weatherTool] });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.tool_calls).toEqual([{ id: 'tooluse_nova_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    expect(sentBody()['toolConfig']).toEqual({
      tools: [{ toolSpec: { name: 'get_weather', description: 'Weather in a city', inputSchema: { json: weatherTool.function.parameters } } }],
    });
  });

  it('sends a tool\'s result back as a toolResult in the user turn', async () => {
    const completion = await openai.chat.completions.create({
      model: 'nova-pro',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'tooluse_nova_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'tooluse_nova_1', content: 'Sunny, 21°C' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe(defaultConverseText);
    expect(sentBody()['messages']).toEqual([
      { role: 'user', content: [{ text: 'Weather in Paris?' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_nova_1', name: 'get_weather', input: { city: 'Paris' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_nova_1', content: [{ text: 'Sunny, 21°C' }] } }] },
    ]);
  });

  it('streams a tool call from ConverseStream as one tool call', async () => {
    bedrock.script({
      kind: 'converse-stream',
      events: [
        { type: 'messageStart', payload: { role: 'assistant' } },
        { type: 'contentBlockStart', payload: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_nova_2', name: 'get_weather' } } } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":' } } } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { toolUse: { input: '"Paris"}' } } } },
        { type: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
        { type: 'messageStop', payload: { stopReason: 'tool_use' } },
        { type: 'metadata', payload: { usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 }, metrics: { latencyMs: 200 } } },
      ],
    });
    const final = await openai.chat.completions.stream({ model: 'nova-pro', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weatherTool] }).finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.choices[0]?.message.tool_calls).toEqual([{ id: 'tooluse_nova_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${encodeURIComponent(nova)}/converse-stream`);
  });

  it('answers Bedrock\'s throttling as a rate limit in the chat error shape', async () => {
    bedrock.script({ kind: 'error', status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
    const failure = await openai.chat.completions.create({ model: 'nova-pro', messages: question }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${encodeURIComponent(nova)}/converse`);
  });
});

describe('a Responses client meets a model Bedrock serves through Converse', () => {
  it('is translated to Converse and answered as a Responses output, streamed', async () => {
    const stream = openai.responses.stream({ model: 'nova-pro', input: 'Say hello.', max_output_tokens: 40 });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(defaultConverseText);
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${encodeURIComponent(nova)}/converse-stream`);
    expect(sentBody()['inferenceConfig']).toEqual({ maxTokens: 40 });
  });
});

describe('a ConverseStream that opens with an exception', () => {
  it('falls back to the next route, since nothing has reached the client yet', async () => {
    bedrock.script({ kind: 'converse-stream', events: [], exception: { type: 'throttlingException', body: { message: 'Too many tokens, please wait before trying again.' } } });
    const backupBefore = backup.requests.length;
    const final = await openai.chat.completions.stream({ model: 'nova-then-west', messages: question }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(defaultConverseText);
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${encodeURIComponent(nova)}/converse-stream`);
    expect(backup.requests.length).toBe(backupBefore + 1);
    expect(backup.requests.at(-1)?.headers['authorization']).toContain('/us-west-2/bedrock/aws4_request');
  });

  it('ends a stream already under way with an error in the client\'s shape', async () => {
    bedrock.script({
      kind: 'converse-stream',
      events: [{ type: 'messageStart', payload: { role: 'assistant' } }, { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Hel' } } }],
      exception: { type: 'modelStreamErrorException', body: { message: 'The model stream failed.' } },
    });
    const backupBefore = backup.requests.length;
    const chunks: string[] = [];
    const failure = await openai.chat.completions.stream({ model: 'nova-then-west', messages: question }).on('content', (delta) => chunks.push(delta)).finalChatCompletion().catch((error: unknown) => error);
    expect(chunks.join('')).toBe('Hel');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('The model stream failed.');
    expect(backup.requests.length).toBe(backupBefore);
  });
});

describe('a Messages client meets a model Bedrock serves through Converse', () => {
  it('is translated to Converse and answered in the Messages shape', async () => {
    const message = await anthropic.messages.create({ model: 'nova-pro', max_tokens: 64, messages: question });
    expect(message.content).toEqual([{ type: 'text', text: defaultConverseText }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${encodeURIComponent(nova)}/converse`);
  });

  it('counts its tokens locally, since Bedrock\'s CountTokens does not serve every model', async () => {
    const before = bedrock.requests.length;
    const counted = await anthropic.messages.countTokens({ model: 'nova-pro', messages: question });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(bedrock.requests.length).toBe(before);
  });
});
