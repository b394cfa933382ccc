import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { defaultClaudeText } from '../support/fake-bedrock/default-answers.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

const profile = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
let bedrock: FakeBedrock;
let backup: FakeBedrock;
let keyed: FakeBedrock;
let gateway: TestGateway;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  bedrock = await startFakeBedrock();
  backup = await startFakeBedrock({ region: 'us-west-2' });
  keyed = await startFakeBedrock({ apiKey: 'bedrock-api-key-e2e' });
  const keys = (fake: FakeBedrock) => ({ access_key_id: fake.secret.accessKeyId, secret_access_key: fake.secret.secretAccessKey });
  gateway = await startTestGateway({
    routing: { attempts_per_route: 1 },
    providers: {
      bedrock: { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, ...keys(bedrock) },
      'bedrock-west': { type: 'bedrock', region: 'us-west-2', base_url: backup.url, ...keys(backup) },
      'bedrock-keyed': { type: 'bedrock', region: 'us-east-1', base_url: keyed.url, api_key: 'bedrock-api-key-e2e' },
      'bedrock-wrong-secret': { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, access_key_id: bedrock.secret.accessKeyId, secret_access_key: 'not-the-secret' },
    },
    models: [
      { id: 'claude-bedrock', routes: [{ provider: 'bedrock', model: profile }] },
      { id: 'claude-then-west', routes: [{ provider: 'bedrock', model: profile }, { provider: 'bedrock-west', model: profile }] },
      { id: 'claude-keyed', routes: [{ provider: 'bedrock-keyed', model: 'anthropic.claude-haiku-4-5-20251001-v1:0' }] },
      { id: 'claude-wrong-secret', routes: [{ provider: 'bedrock-wrong-secret', model: profile }] },
    ],
  });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'any', maxRetries: 0 });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await bedrock.close();
  await backup.close();
  await keyed.close();
});

const question = [{ role: 'user' as const, content: 'Say hello.' }];
const escapedProfile = encodeURIComponent(profile);

/** A streamed Claude answer with a signed thinking block, a tool call and cache usage, as Anthropic streams it. */
const thinkingToolStream = [
  { type: 'message_start', message: { id: 'msg_bdrk_02', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20, cache_creation_input_tokens: 300, cache_read_input_tokens: 1200, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants the weather.' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCkgIARABGAIiQL2signature' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_bdrk_1', name: 'get_weather', input: {} } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 40 } },
  { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 20, outputTokenCount: 40, invocationLatency: 900, firstByteLatency: 300 } },
];
const weatherTool = { name: 'get_weather', description: 'Weather in a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

describe('a Messages client meets Claude on Bedrock', () => {
  it('is answered through a signed InvokeModel with the Bedrock body, its betas in anthropic_beta', async () => {
    const message = await anthropic.messages.create(
      { model: 'claude-bedrock', max_tokens: 64, messages: question },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,context-1m-2025-08-07' } },
    );
    expect(message.content).toEqual([{ type: 'text', text: defaultClaudeText }]);
    const sent = bedrock.requests.at(-1);
    expect(sent?.path).toBe(`/model/${escapedProfile}/invoke`);
    expect(sent?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEBEDROCK0001\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    expect(sent?.invokeBody).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      messages: question,
      anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'],
    });
  });

  it('streams signed thinking, a tool call and cache usage through the event stream, and meters the cache buckets', async () => {
    bedrock.script({ kind: 'invoke-stream', events: thinkingToolStream });
    const entriesBefore = (await gateway.services.storage.ledger.list({ limit: 1_000 })).length;
    const stream = anthropic.messages.stream({ model: 'claude-bedrock', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [weatherTool], messages: question });
    const final = await stream.finalMessage();
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${escapedProfile}/invoke-with-response-stream`);
    expect(final.content[0]).toEqual({ type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCkgIARABGAIiQL2signature' });
    expect(final.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_bdrk_1', name: 'get_weather', input: { city: 'Paris' } });
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage).toMatchObject({ input_tokens: 20, cache_creation_input_tokens: 300, cache_read_input_tokens: 1200, output_tokens: 40 });
    const entry = await waitForLedgerEntry(gateway, entriesBefore + 1);
    expect(entry).toMatchObject({ provider: 'bedrock', upstreamModel: profile, inputUncached: 20, cacheWrite: 300, cacheRead: 1200, output: 40, usageEstimated: false });
  });

  it('passes a thinking block with its signature back to the model on the next turn', async () => {
    await anthropic.messages.create({
      model: 'claude-bedrock',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weatherTool],
      messages: [
        ...question,
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCkgIARABGAIiQL2signature' }, { type: 'tool_use', id: 'toolu_bdrk_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_bdrk_1', content: '18°C' }] },
      ],
    });
    const body = bedrock.requests.at(-1)?.invokeBody as { messages: { content: unknown[] }[] };
    expect(body.messages[1]?.content[0]).toEqual({ type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCkgIARABGAIiQL2signature' });
  });

  it('turns an exception frame mid-stream into the error a Messages stream ends with', async () => {
    bedrock.script({ kind: 'invoke-stream', events: thinkingToolStream.slice(0, 3), exception: { type: 'throttlingException', body: { message: 'Too many tokens, please wait before trying again.' } } });
    const stream = anthropic.messages.stream({ model: 'claude-bedrock', max_tokens: 64, messages: question });
    const failure = await stream.finalMessage().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(String((failure as Error).message)).toContain('Too many tokens');
  });

  it('counts tokens with CountTokens on the model the inference profile routes to', async () => {
    bedrock.script({ kind: 'count', inputTokens: 42 });
    const counted = await anthropic.messages.countTokens({ model: 'claude-bedrock', messages: question, system: 'Be brief.' });
    expect(counted.input_tokens).toBe(42);
    const sent = bedrock.requests.at(-1);
    expect(sent?.path).toBe(`/model/${encodeURIComponent('anthropic.claude-sonnet-4-5-20250929-v1:0')}/count-tokens`);
    expect(sent?.invokeBody).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', system: 'Be brief.', messages: question });
  });

  it('signs nothing with a Bedrock API key: the key goes as a bearer token', async () => {
    const message = await anthropic.messages.create({ model: 'claude-keyed', max_tokens: 16, messages: question });
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect(keyed.requests.at(-1)?.headers['authorization']).toBe('Bearer bedrock-api-key-e2e');
  });
});

describe('other clients meet Claude on Bedrock', () => {
  it('translates a chat completion to InvokeModel and back', async () => {
    const completion = await openai.chat.completions.create({ model: 'claude-bedrock', messages: question, max_tokens: 50 });
    expect(completion.choices[0]?.message.content).toBe(defaultClaudeText);
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 7 });
    const sent = bedrock.requests.at(-1);
    expect(sent?.path).toBe(`/model/${escapedProfile}/invoke`);
    expect(sent?.invokeBody).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 50 });
  });

  it('streams a chat completion from the event stream', async () => {
    const stream = openai.chat.completions.stream({ model: 'claude-bedrock', messages: question, max_tokens: 50 });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(defaultClaudeText);
    expect(bedrock.requests.at(-1)?.path).toBe(`/model/${escapedProfile}/invoke-with-response-stream`);
  });

  it('answers a Responses client through InvokeModel', async () => {
    const response = await openai.responses.create({ model: 'claude-bedrock', input: 'Say hello.', max_output_tokens: 50 });
    expect(response.output_text).toBe(defaultClaudeText);
  });
});

describe('Bedrock failures', () => {
  it('falls back to the next route when Bedrock throttles', async () => {
    bedrock.script({ kind: 'error', status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
    const backupBefore = backup.requests.length;
    const message = await anthropic.messages.create({ model: 'claude-then-west', max_tokens: 16, messages: question });
    expect(message.content[0]).toMatchObject({ type: 'text', text: defaultClaudeText });
    expect(backup.requests.length).toBe(backupBefore + 1);
    expect(backup.requests.at(-1)?.headers['authorization']).toContain('/us-west-2/bedrock/aws4_request');
  });

  it('falls back to the next route when a stream is throttled before it begins', async () => {
    bedrock.script({ kind: 'error', status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
    const backupBefore = backup.requests.length;
    const final = await anthropic.messages.stream({ model: 'claude-then-west', max_tokens: 16, messages: question }).finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: defaultClaudeText });
    expect(backup.requests.at(-1)?.path).toBe(`/model/${escapedProfile}/invoke-with-response-stream`);
    expect(backup.requests.length).toBe(backupBefore + 1);
  });

  it('falls back to the next route when the event stream opens with a throttling exception', async () => {
    bedrock.script({ kind: 'invoke-stream', events: [], exception: { type: 'throttlingException', body: { message: 'Too many tokens, please wait before trying again.' } } });
    const backupBefore = backup.requests.length;
    const final = await anthropic.messages.stream({ model: 'claude-then-west', max_tokens: 16, messages: question }).finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: defaultClaudeText });
    expect(backup.requests.length).toBe(backupBefore + 1);
  });

  it('falls back for a chat client too when the event stream opens with a throttling exception', async () => {
    bedrock.script({ kind: 'invoke-stream', events: [], exception: { type: 'throttlingException', body: { message: 'Too many tokens, please wait before trying again.' } } });
    const backupBefore = backup.requests.length;
    const final = await openai.chat.completions.stream({ model: 'claude-then-west', messages: question, max_tokens: 16 }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(defaultClaudeText);
    expect(backup.requests.length).toBe(backupBefore + 1);
  });

  it("answers a refused signature as the gateway's credential problem, charging nothing", async () => {
    const refusedBefore = bedrock.refused.length;
    const entriesBefore = (await gateway.services.storage.ledger.list({ limit: 1_000 })).length;
    const failure = await anthropic.messages.create({ model: 'claude-wrong-secret', max_tokens: 16, messages: question }).catch((error: unknown) => error);
    expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    expect(String((failure as Error).message)).toContain("refused the gateway's credentials");
    expect(String((failure as Error).message)).not.toContain('not-the-secret');
    expect(bedrock.refused.at(-1)).toMatchObject({ status: 403, errorType: 'InvalidSignatureException' });
    expect(bedrock.refused.length).toBe(refusedBefore + 1);
    const entry = await waitForLedgerEntry(gateway, entriesBefore + 1);
    expect(entry.costNanoUsd).toBe(0n);
  });
});
