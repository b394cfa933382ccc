import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureChunks, readFixture, sseFromChunks, type SseFraming } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

/**
 * The official openai client against a gateway whose upstreams replay real recordings: chat
 * upstreams are passed through, Anthropic and Gemini upstreams are translated.
 */
type UpstreamKind = 'compatible' | 'anthropic' | 'gemini';

interface Expected {
  readonly text?: string;
  readonly toolCalls?: readonly { name: string; arguments: unknown }[];
  readonly finish: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Output tokens billed when they differ from what the client is shown (xAI counts reasoning outside completion_tokens). */
  readonly billedOutputTokens?: number;
}

interface Scenario {
  readonly name: string;
  readonly upstream: UpstreamKind;
  readonly recording: string;
  readonly stream: boolean;
  readonly expected: Expected;
}

const framing: Record<UpstreamKind, SseFraming> = { compatible: 'data', anthropic: 'named', gemini: 'data' };

const scenarios: Scenario[] = [
  // OpenAI-compatible chat upstreams: passthrough.
  { name: 'text', upstream: 'compatible', recording: 'openai/chat/openai-text.json', stream: false, expected: { text: '**Holiday Name:** Galaxy Day', finish: 'stop', promptTokens: 16, completionTokens: 363 } },
  { name: 'text', upstream: 'compatible', recording: 'openai/chat/openai-text.chunks.txt', stream: true, expected: { text: '**Holiday Name:** Harmony Day', finish: 'stop', promptTokens: 16, completionTokens: 300 } },
  { name: 'text with a leading filter chunk', upstream: 'compatible', recording: 'openai/chat/azure-model-router.1.chunks.txt', stream: true, expected: { text: 'Capital of Denmark.', finish: 'stop', promptTokens: 15, completionTokens: 78 } },
  { name: 'tool call with fragmented arguments', upstream: 'compatible', recording: 'openai-compatible/chat/deepseek-tool-call.chunks.txt', stream: true, expected: { toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }], finish: 'tool_calls', promptTokens: 339, completionTokens: 83 } },
  { name: 'tool call', upstream: 'compatible', recording: 'openai-compatible/chat/deepseek-tool-call.json', stream: false, expected: { toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }], finish: 'tool_calls', promptTokens: 339, completionTokens: 92 } },
  { name: 'whole tool call in one chunk', upstream: 'compatible', recording: 'openai-compatible/chat/xai-tool-call.chunks.txt', stream: true, expected: { toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }], finish: 'tool_calls', promptTokens: 307, completionTokens: 26, billedOutputTokens: 26 + 227 } },
  { name: 'tool call with usage on the finish chunk', upstream: 'compatible', recording: 'openai-compatible/chat/groq-tool-call.chunks.txt', stream: true, expected: { toolCalls: [{ name: 'weather', arguments: {} }], finish: 'tool_calls', promptTokens: 210, completionTokens: 15 } },
  // Anthropic upstreams: translated.
  { name: 'text', upstream: 'anthropic', recording: 'anthropic/messages/anthropic-text.json', stream: false, expected: { text: "Hello! I'm doing well", finish: 'stop', promptTokens: 12, completionTokens: 29 } },
  { name: 'text', upstream: 'anthropic', recording: 'anthropic/messages/anthropic-text.chunks.txt', stream: true, expected: { text: 'Hello', finish: 'stop', promptTokens: 12, completionTokens: 30 } },
  { name: 'text then a tool call without arguments', upstream: 'anthropic', recording: 'anthropic/messages/anthropic-tool-no-args.chunks.txt', stream: true, expected: { text: 'update the issue list', toolCalls: [{ name: 'updateIssueList', arguments: {} }], finish: 'tool_calls', promptTokens: 565, completionTokens: 48 } },
  { name: 'tool call with fragmented arguments', upstream: 'anthropic', recording: 'anthropic/messages/anthropic-json-tool.1.chunks.txt', stream: true, expected: { toolCalls: [{ name: 'json', arguments: 'elements' }], finish: 'tool_calls', promptTokens: 849, completionTokens: 47 } },
  { name: 'tool call', upstream: 'anthropic', recording: 'anthropic/messages/anthropic-json-tool.1.json', stream: false, expected: { toolCalls: [{ name: 'json', arguments: 'elements' }], finish: 'tool_calls', promptTokens: 1151, completionTokens: 87 } },
  { name: 'thinking then text', upstream: 'anthropic', recording: 'anthropic/messages/anthropic-clear-thinking.1.chunks.txt', stream: true, expected: { text: '925 ÷ 5 = 185', finish: 'stop', promptTokens: 69, completionTokens: 53 } },
  // Gemini upstreams: translated.
  { name: 'text', upstream: 'gemini', recording: 'google/generate-content/google-text.json', stream: false, expected: { text: 'strawberry', finish: 'stop', promptTokens: 9, completionTokens: 272 } },
  { name: 'text', upstream: 'gemini', recording: 'google/generate-content/google-text.chunks.txt', stream: true, expected: { text: 'There are **3**', finish: 'stop', promptTokens: 9, completionTokens: 208 } },
  { name: 'tool call', upstream: 'gemini', recording: 'google/generate-content/google-tool-call.json', stream: false, expected: { toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }], finish: 'tool_calls', promptTokens: 29, completionTokens: 908 } },
  { name: 'tool call', upstream: 'gemini', recording: 'google/generate-content/google-tool-call.chunks.txt', stream: true, expected: { toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }], finish: 'tool_calls', promptTokens: 29, completionTokens: 60 } },
  {
    name: 'parallel calls with streamed arguments',
    upstream: 'gemini',
    recording: 'google/generate-content/google-stream-no-args-tool-call.chunks.txt',
    stream: true,
    expected: {
      toolCalls: [
        { name: 'read_theme', arguments: {} },
        { name: 'read_screen', arguments: { id: 'A' } },
        { name: 'read_screen', arguments: { id: 'B' } },
        { name: 'read_screen', arguments: { id: 'C' } },
      ],
      finish: 'tool_calls',
      promptTokens: 249,
      completionTokens: 241,
    },
  },
];

const upstreams = {} as Record<UpstreamKind, ScriptedUpstream>;
let gateway: TestGateway;
let client: OpenAI;
let ledgerEntries = 0;

beforeAll(async () => {
  upstreams.compatible = await startScriptedUpstream();
  upstreams.anthropic = await startScriptedUpstream();
  upstreams.gemini = await startScriptedUpstream();
  gateway = await startTestGateway({
    providers: {
      compatible: { type: 'openai-compatible', base_url: `${upstreams.compatible.url}/v1`, api_key: 'upstream-secret-compatible' },
      anthropic: { type: 'anthropic', base_url: upstreams.anthropic.url, api_key: 'upstream-secret-anthropic' },
      gemini: { type: 'gemini', base_url: upstreams.gemini.url, api_key: 'upstream-secret-gemini' },
    },
    models: [
      { id: 'model-compatible', routes: [{ provider: 'compatible', model: 'upstream-compatible' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } },
      { id: 'model-anthropic', routes: [{ provider: 'anthropic', model: 'claude-upstream' }], price: { input_per_mtok: '3.00', output_per_mtok: '15.00' } },
      { id: 'model-gemini', routes: [{ provider: 'gemini', model: 'gemini-upstream' }], price: { input_per_mtok: '2.00', output_per_mtok: '12.00' } },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'sdk-key', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await Promise.all(Object.values(upstreams).map((upstream) => upstream.close()));
});

function replay(scenario: Scenario): void {
  const upstream = upstreams[scenario.upstream];
  if (!scenario.stream) {
    upstream.reply({ body: readFixture(scenario.recording) });
    return;
  }
  const sse = sseFromChunks(fixtureChunks(scenario.recording), framing[scenario.upstream], scenario.upstream === 'compatible');
  upstream.reply({ pieces: splitSse(sse) });
}

function assertAnswer(message: OpenAI.Chat.ChatCompletionMessage, finish: string | null | undefined, expected: Expected): void {
  if (expected.text !== undefined) expect(message.content ?? '').toContain(expected.text);
  const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
  expect(calls.map((call) => call.function.name)).toEqual((expected.toolCalls ?? []).map((call) => call.name));
  (expected.toolCalls ?? []).forEach((call, index) => {
    const actual = JSON.parse(calls[index]?.function.arguments || '{}') as Record<string, unknown>;
    if (typeof call.arguments === 'string') expect(Object.keys(actual)).toContain(call.arguments);
    else expect(actual).toEqual(call.arguments);
  });
  for (const call of calls) expect(call.id).toMatch(/\S/);
  expect(finish).toBe(expected.finish);
}

describe.each(scenarios)('chat client → $upstream upstream, $name (stream: $stream)', (scenario) => {
  it('gives the official client the recorded answer with exact, non-zero usage', async () => {
    replay(scenario);
    const model = `model-${scenario.upstream}`;
    const messages = [{ role: 'user' as const, content: 'what is the weather in San Francisco?' }];
    const tools = [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }];
    if (scenario.stream) {
      const stream = client.chat.completions.stream({ model, messages, tools, stream_options: { include_usage: true } });
      const final = await stream.finalChatCompletion();
      assertAnswer(final.choices[0]!.message, final.choices[0]?.finish_reason, scenario.expected);
      expect(final.usage?.prompt_tokens).toBe(scenario.expected.promptTokens);
      expect(final.usage?.completion_tokens).toBe(scenario.expected.completionTokens);
    } else {
      const completion = await client.chat.completions.create({ model, messages, tools });
      assertAnswer(completion.choices[0]!.message, completion.choices[0]?.finish_reason, scenario.expected);
      expect(completion.usage?.prompt_tokens).toBe(scenario.expected.promptTokens);
      expect(completion.usage?.completion_tokens).toBe(scenario.expected.completionTokens);
    }
    const entry = await waitForLedgerEntry(gateway, ++ledgerEntries);
    expect(entry.model).toBe(model);
    expect(entry.usageEstimated).toBe(false);
    expect(entry.inputUncached + entry.cacheRead + entry.cacheWrite).toBe(scenario.expected.promptTokens);
    expect(entry.output + entry.reasoning).toBe(scenario.expected.billedOutputTokens ?? scenario.expected.completionTokens);
    expect(entry.costNanoUsd).toBeGreaterThan(0n);
  });
});

describe('streams without include_usage', () => {
  it('still meters a passed-through chat stream, and the client sees no usage chunk it did not ask for', async () => {
    const recording = 'openai/chat/openai-text.chunks.txt';
    upstreams.compatible.reply({ pieces: splitSse(sseFromChunks(fixtureChunks(recording), 'data', true)) });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'model-compatible', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await response.text();
    const sent = JSON.parse(upstreams.compatible.requests.at(-1)!.body) as { stream_options?: { include_usage?: boolean } };
    expect(sent.stream_options?.include_usage).toBe(true);
    expect(text).not.toContain('"choices":[]');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const entry = await waitForLedgerEntry(gateway, ++ledgerEntries);
    expect(entry.inputUncached).toBe(16);
    expect(entry.output).toBe(300);
  });
});
