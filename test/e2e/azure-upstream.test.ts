import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureChunks, readFixture, sseFromChunks } from '../support/fixtures.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';
import { azureOperation, azureReply, json, startScriptedUpstream, type AzureOperation, type Reply, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';

/**
 * Chat, Responses and Messages clients, through the gateway, to a fake Azure OpenAI resource in
 * both of its path shapes: the v1 API and the classic deployment paths with an API version. The
 * fake refuses what Azure refuses (no api-version, no key), so a call that gets through was
 * addressed and authorized as Azure wants.
 */
let upstream: ScriptedUpstream;
let gateway: TestGateway;
let chat: OpenAI;
let messages: Anthropic;
let answer: (operation: AzureOperation) => Reply = () => json({});

const chatCompletion = (content: string) => ({
  id: 'chatcmpl-az',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
});
const toolCompletion = {
  id: 'chatcmpl-tool',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] } }],
  usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
};
const modelRouterStream = (): Reply => ({ pieces: splitSse(sseFromChunks(fixtureChunks('openai/chat/azure-model-router.1.chunks.txt'), 'data', true)) });
const weatherTool = { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: azureReply({ apiKey: 'azure-upstream-key' }, (operation) => answer(operation)) });
  gateway = await startTestGateway({
    providers: {
      'azure-v1': { type: 'azure', base_url: `${upstream.url}/openai/v1`, api_key: 'azure-upstream-key' },
      'azure-classic': { type: 'azure', base_url: upstream.url, api_version: '2025-04-01-preview', api_key: 'azure-upstream-key' },
    },
    models: [
      { id: 'gpt-v1', routes: [{ provider: 'azure-v1', model: 'gpt-4o' }], price: { input_per_mtok: '2.50', output_per_mtok: '10.00' } },
      { id: 'gpt-classic', routes: [{ provider: 'azure-classic', model: 'my-deployment' }], price: { input_per_mtok: '2.50', output_per_mtok: '10.00' } },
      { id: 'image-classic', output_modality: 'image', routes: [{ provider: 'azure-classic', model: 'gpt-image-1' }] },
    ],
  });
  chat = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'client-key', maxRetries: 0 });
  messages = new Anthropic({ baseURL: gateway.url, apiKey: 'client-key', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  answer = () => json({});
});

const lastOperation = (): AzureOperation | undefined => {
  const request = upstream.requests.at(-1);
  return request === undefined ? undefined : azureOperation(request);
};
const ledgerSize = async () => {
  await gateway.services.ledger.flush();
  return (await gateway.services.storage.ledger.list({ limit: 1_000 })).length;
};

describe.each([
  { model: 'gpt-v1', expected: { form: 'v1', operation: 'chat/completions', deployment: undefined, apiVersion: undefined } },
  { model: 'gpt-classic', expected: { form: 'classic', operation: 'chat/completions', deployment: 'my-deployment', apiVersion: '2025-04-01-preview' } },
])('a chat client → Azure ($model)', ({ model, expected }) => {
  it('is passed through to the right path with the api-key header, never the client key', async () => {
    answer = () => json(chatCompletion('Hello from Azure'));
    const completion = await chat.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure');
    expect(lastOperation()).toEqual(expected);
    const sent = upstream.requests.at(-1);
    expect(sent?.headers['api-key']).toBe('azure-upstream-key');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(sent?.headers)).not.toContain('client-key');
  });

  it('streams a recorded Azure stream whose first chunk holds only prompt filter results', async () => {
    answer = modelRouterStream;
    const stream = await chat.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toContain('Capital of Denmark.');
    expect(finish).toBe('stop');
    expect(lastOperation()).toEqual(expected);
  });

  it('carries tools and the tool call back', async () => {
    answer = () => json(toolCompletion);
    const completion = await chat.chat.completions.create({ model, messages: [{ role: 'user', content: 'weather in Oslo?' }], tools: [weatherTool] });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'weather', arguments: '{"city":"Oslo"}' } });
    expect(JSON.parse(upstream.requests.at(-1)?.body ?? '{}')).toMatchObject({ tools: [weatherTool] });
  });
});

describe.each(['gpt-v1', 'gpt-classic'])('a Messages client → Azure (%s), translated to chat completions', (model) => {
  it('gets a Messages answer with usage', async () => {
    answer = () => json(chatCompletion('Translated hello'));
    const message = await messages.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Translated hello' })]);
    expect(message.usage).toMatchObject({ input_tokens: 11, output_tokens: 3 });
    expect(lastOperation()?.operation).toBe('chat/completions');
    expect(upstream.requests.at(-1)?.headers['api-key']).toBe('azure-upstream-key');
  });

  it('streams from a recorded Azure stream with its prompt filter chunk first', async () => {
    answer = modelRouterStream;
    const stream = messages.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalMessage();
    expect(final.content.map((block) => (block.type === 'text' ? block.text : '')).join('')).toContain('Capital of Denmark.');
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(78);
  });

  it('gets a tool call as a tool_use block', async () => {
    answer = () => json(toolCompletion);
    const message = await messages.messages.create({
      model,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'weather in Oslo?' }],
      tools: [{ name: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'weather', input: { city: 'Oslo' } })]);
  });
});

describe.each([
  { model: 'gpt-v1', expected: { form: 'v1', operation: 'responses', deployment: undefined, apiVersion: undefined }, upstreamModel: 'gpt-4o' },
  { model: 'gpt-classic', expected: { form: 'classic', operation: 'responses', deployment: undefined, apiVersion: '2025-04-01-preview' }, upstreamModel: 'my-deployment' },
])('a Responses client → Azure ($model)', ({ model, expected, upstreamModel }) => {
  it('is passed through to Azure’s Responses path with the deployment as the model', async () => {
    answer = () => ({ body: readFixture('openai/responses/azure-text.1.json') });
    const response = await chat.responses.create({ model, input: 'hi' });
    expect(response.output_text.length).toBeGreaterThan(0);
    expect(lastOperation()).toEqual(expected);
    expect(JSON.parse(upstream.requests.at(-1)?.body ?? '{}')).toMatchObject({ model: upstreamModel });
  });

  it('streams a recorded Azure Responses stream with a tool call', async () => {
    answer = () => ({ pieces: splitSse(sseFromChunks(fixtureChunks('openai/responses/azure-tool-call.1.chunks.txt'), 'named')) });
    const stream = await chat.responses.create({ model, input: 'weather?', stream: true, tools: [{ type: 'function', name: 'weather', parameters: {}, strict: false }] });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toContain('response.function_call_arguments.done');
    expect(types.at(-1)).toBe('response.completed');
  });
});

describe('content filtering on Azure', () => {
  it('a filtered prompt is a 400 naming the content filter, for chat and Messages clients, and costs nothing', async () => {
    answer = () => ({ status: 400, body: readFixture('azure/content-filter-prompt-error.json') });
    const before = await ledgerSize();
    const sentBefore = upstream.requests.length;
    const chatError = await chat.chat.completions.create({ model: 'gpt-classic', messages: [{ role: 'user', content: 'bad' }] }).catch((error: unknown) => error);
    expect(chatError).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chatError as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('content_filter');
    expect((chatError as Error).message).toMatch(/content management policy/);
    const messagesError = await messages.messages.create({ model: 'gpt-v1', max_tokens: 10, messages: [{ role: 'user', content: 'bad' }] }).catch((error: unknown) => error);
    expect(messagesError).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messagesError as Error).message).toMatch(/content management policy/);
    expect(upstream.requests.length - sentBefore).toBe(2);
    const entries = await gateway.services.storage.ledger.list({ limit: 1_000 });
    expect(entries.slice(0, entries.length - before).every((entry) => entry.costNanoUsd === 0n)).toBe(true);
  });

  it('a filtered answer is a content_filter finish for chat clients and a refusal for Messages clients', async () => {
    answer = () => ({ body: readFixture('azure/content-filter-completion.json') });
    const completion = await chat.chat.completions.create({ model: 'gpt-classic', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.finish_reason).toBe('content_filter');
    const message = await messages.messages.create({ model: 'gpt-classic', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.stop_reason).toBe('refusal');
  });
});

describe('a streamed answer the content filter stopped', () => {
  /** Azure's chunks as in the recorded stream: the prompt filter chunk first, then the answer cut by the filter. */
  const filteredStream = (): Reply => {
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices, ...extra });
    const chunks = [
      { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: { violence: { filtered: false, severity: 'safe' } } }] },
      chunk([{ index: 0, delta: { role: 'assistant', content: 'Once upon' }, finish_reason: null, content_filter_results: {} }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'content_filter', content_filter_results: { violence: { filtered: true, severity: 'medium' } } }]),
      chunk([], { usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } }),
    ];
    return { pieces: splitSse(sseFromChunks(chunks.map((each) => JSON.stringify(each)), 'data', true)) };
  };

  it('ends with a content_filter finish for a chat client and a refusal for a Messages client', async () => {
    answer = filteredStream;
    const stream = await chat.chat.completions.create({ model: 'gpt-classic', messages: [{ role: 'user', content: 'a story' }], stream: true });
    let finish: string | null | undefined;
    for await (const chunk of stream) finish = chunk.choices[0]?.finish_reason ?? finish;
    expect(finish).toBe('content_filter');
    const final = await messages.messages.stream({ model: 'gpt-classic', max_tokens: 100, messages: [{ role: 'user', content: 'a story' }] }).finalMessage();
    expect(final.stop_reason).toBe('refusal');
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'Once upon' })]);
  });
});

describe('images on Azure', () => {
  it('generates on the classic deployment path and charges the image', async () => {
    answer = () => json({ created: 1, data: [{ b64_json: Buffer.from('png').toString('base64') }], usage: { input_tokens: 10, output_tokens: 272, total_tokens: 282, input_tokens_details: { text_tokens: 10, image_tokens: 0 } } });
    const before = await ledgerSize();
    const result = await chat.images.generate({ model: 'image-classic', prompt: 'a lighthouse', size: '1024x1024' });
    expect(result.data?.[0]?.b64_json).toBeDefined();
    expect(lastOperation()).toEqual({ form: 'classic', operation: 'images/generations', deployment: 'gpt-image-1', apiVersion: '2025-04-01-preview' });
    expect(upstream.requests.at(-1)?.headers['api-key']).toBe('azure-upstream-key');
    await waitForLedgerEntry(gateway, before + 1);
  });

  it('edits on the classic deployment path, the multipart form intact', async () => {
    answer = () => ({ body: readFixture('openai/images/openai-image-edit.json') });
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 10, g: 160, b: 90 } } }).png().toBuffer();
    const result = await chat.images.edit({ model: 'image-classic', prompt: 'make it evening', image: await toFile(png, 'scene.png', { type: 'image/png' }) });
    expect(result.data?.[0]?.b64_json).toBeDefined();
    expect(lastOperation()).toEqual({ form: 'classic', operation: 'images/edits', deployment: 'gpt-image-1', apiVersion: '2025-04-01-preview' });
    const sent = upstream.requests.at(-1);
    expect(String(sent?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.headers['api-key']).toBe('azure-upstream-key');
    expect(sent?.body).toContain('filename="scene.png"');
  });
});
