/**
 * Both directions of the Responses wire format together, judged by the official `openai` SDK:
 * recorded upstream streams (Responses, chat and Anthropic) are decoded by the providers and
 * re-encoded by the responses client format, and the SDK must accumulate the same answer. (Lives
 * under wire/ because it is the one place allowed to exercise formats/ and providers/ together.)
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { EncodeContext } from '../../formats/client-format.js';
import { responsesFormat } from '../../formats/responses/index.js';
import type { IrStreamEvent, IrTool } from '../../ir/index.js';
import { anthropicAdapter } from '../../providers/anthropic/index.js';
import { createOpenAIChatAdapter } from '../../providers/openai/openai-adapters.js';
import { openAIResponsesAdapter } from '../../providers/openai/openai-adapters.js';
import { clientAnswering } from '../chat/client-answering.test-support.js';
import { chatStreamFixtures } from '../chat/chat-fixtures.test-support.js';
import { readStreams, responsesStreamFixtures } from './responses-fixtures.test-support.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';
import { sse, typedEvents } from '../../../test/support/sse.js';

function contextFor(body: Record<string, unknown> = {}): EncodeContext {
  const request = responsesFormat.decodeRequest({ model: 'public-model', input: 'hi', stream: true, ...body });
  return { requestId: 'req_1', model: 'public-model', request };
}

function encode(events: readonly IrStreamEvent[], context: EncodeContext): string {
  const encoder = responsesFormat.createStreamEncoder(context);
  return events.map((event) => encoder.encode(event)).join('');
}

function decodeResponsesLines(lines: readonly string[], context: EncodeContext): IrStreamEvent[] {
  const decoder = openAIResponsesAdapter.text.createStreamDecoder(context.request);
  return [...lines.flatMap((line) => decoder.push(JSON.parse(line).type as string, line)), ...decoder.end()];
}

async function sdkFinal(sse: string): Promise<OpenAI.Responses.Response> {
  return clientAnswering(sse, 'text/event-stream').responses.stream({ model: 'public-model', input: 'hi' }).finalResponse();
}

/**
 * A recorded usage as the gateway writes it: the recordings predate the API's
 * `cache_write_tokens`, so they wrote nothing to the cache and the gateway says 0.
 */
function withCacheWrites(usage: OpenAI.Responses.ResponseUsage | undefined): OpenAI.Responses.ResponseUsage | undefined {
  if (usage === undefined) return undefined;
  return { ...usage, input_tokens_details: { ...usage.input_tokens_details, cache_write_tokens: usage.input_tokens_details.cache_write_tokens ?? 0 } };
}

function calls(response: OpenAI.Responses.Response): [string, unknown][] {
  return response.output.flatMap((item) => (item.type === 'function_call' ? [[item.name, JSON.parse(item.arguments)] as [string, unknown]] : []));
}

describe('recorded Responses streams, decoded and re-encoded, through the openai SDK', () => {
  for (const fixture of responsesStreamFixtures) {
    it(`gives the SDK the same final response for ${fixture.name}`, async () => {
      const lines = readStreams(fixture.file)[fixture.stream] ?? [];
      const original = await sdkFinal(sse(typedEvents(lines)));
      const context = contextFor();
      const reencoded = await sdkFinal(encode(decodeResponsesLines(lines, context), context));
      expect(reencoded.output_text).toBe(original.output_text);
      expect(calls(reencoded)).toEqual(calls(original));
      expect(reencoded.output.filter((item) => item.type === 'function_call').map((item) => item.type === 'function_call' && item.call_id)).toEqual(
        original.output.filter((item) => item.type === 'function_call').map((item) => item.type === 'function_call' && item.call_id),
      );
      expect(reencoded.usage).toEqual(withCacheWrites(original.usage));
      expect(reencoded.status).toBe('completed');
      expect(reencoded.model).toBe('public-model');
    });
  }

  it('keeps reasoning summaries and encrypted content, so Codex can send them back', async () => {
    const lines = readStreams('openai/responses/openai-reasoning-encrypted-content.1.chunks.txt')[0] ?? [];
    const context = contextFor();
    const response = await sdkFinal(encode(decodeResponsesLines(lines, context), context));
    const recordedDone = lines.map((line) => JSON.parse(line)).find((event) => event.type === 'response.output_item.done' && event.item.type === 'reasoning');
    const reasoning = response.output[0];
    expect(reasoning?.type).toBe('reasoning');
    if (reasoning?.type !== 'reasoning') return;
    expect(reasoning.id).toBe(recordedDone.item.id);
    expect(reasoning.encrypted_content).toBe(recordedDone.item.encrypted_content);
    expect(reasoning.summary).toEqual(recordedDone.item.summary);
  });

  it('reads the re-encoded non-streamed responses with responses.create', async () => {
    for (const file of ['azure-text.1.json', 'azure-tool-call.1.json', 'openai-reasoning-encrypted-content.1.json', 'openai-web-search-tool.1.json']) {
      const recorded = readJsonFixture(`openai/responses/${file}`) as Record<string, unknown>;
      const context = contextFor({ stream: false });
      const ir = openAIResponsesAdapter.text.decodeResponse(recorded, context.request);
      const body = JSON.stringify(responsesFormat.encodeResponse(ir, context));
      const response = await clientAnswering(body, 'application/json').responses.create({ model: 'public-model', input: 'hi' });
      const original = await clientAnswering(JSON.stringify(recorded), 'application/json').responses.create({ model: 'public-model', input: 'hi' });
      expect(response.output_text).toBe(original.output_text);
      expect(calls(response)).toEqual(calls(original));
      expect(response.usage).toEqual(withCacheWrites(original.usage));
      expect(response.object).toBe('response');
    }
  });
});

describe('chat and Anthropic recordings re-encoded as Responses', () => {
  const chatAdapter = createOpenAIChatAdapter('openai-compatible');
  for (const fixture of chatStreamFixtures) {
    it(`the SDK accepts the ${fixture.name} chat stream as a Response`, async () => {
      const context = contextFor();
      const decoder = chatAdapter.text.createStreamDecoder(context.request);
      const events = [...fixtureChunks(fixture.chunks).flatMap((line) => decoder.push(undefined, line)), ...decoder.push(undefined, '[DONE]'), ...decoder.end()];
      const response = await sdkFinal(encode(events, context));
      const text = events.flatMap((event) => (event.type === 'block-delta' && event.delta.kind === 'text' ? [event.delta.text] : [])).join('');
      expect(response.output_text).toBe(text);
      expect(response.status).toBe('completed');
      expect(response.usage?.input_tokens).toBeGreaterThan(0);
      if (fixture.body !== undefined && fixture.name !== 'openai text') {
        const reference = chatAdapter.text.decodeResponse(readJsonFixture(fixture.body), context.request);
        expect(calls(response)).toEqual(reference.content.flatMap((part) => (part.type === 'tool-call' ? [[part.name, JSON.parse(part.arguments)]] : [])));
      }
    });
  }

  it('keeps chat usage exact: cached and reasoning tokens land in the details', async () => {
    const context = contextFor();
    const decoder = chatAdapter.text.createStreamDecoder(context.request);
    const events = [...fixtureChunks('openai-compatible/chat/deepseek-tool-call.chunks.txt').flatMap((line) => decoder.push(undefined, line)), ...decoder.push(undefined, '[DONE]')];
    const response = await sdkFinal(encode(events, context));
    expect(response.usage).toEqual({
      input_tokens: 339,
      input_tokens_details: { cached_tokens: 320, cache_write_tokens: 0 },
      output_tokens: 83,
      output_tokens_details: { reasoning_tokens: 39 },
      total_tokens: 422,
    });
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
  });

  for (const file of readAnthropicStreams()) {
    it(`the SDK accepts the Anthropic ${file} stream as a Response`, async () => {
      const context = contextFor();
      const decoder = anthropicAdapter.text.createStreamDecoder(context.request);
      const events = [...fixtureChunks(`anthropic/messages/${file}`).flatMap((line) => decoder.push(JSON.parse(line).type as string, line)), ...decoder.end()];
      const sse = encode(events, context);
      const text = events.flatMap((event) => (event.type === 'block-delta' && event.delta.kind === 'text' ? [event.delta.text] : [])).join('');
      const calledTools = events.flatMap((event) => (event.type === 'block-start' && event.block.kind === 'tool-call' ? [event.block.name] : []));
      const response = await sdkFinal(sse);
      expect(response.output_text).toBe(text);
      expect(response.output.flatMap((item) => (item.type === 'function_call' ? [item.name] : []))).toEqual(calledTools);
      expect((response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0)).toBeGreaterThan(0);
    });
  }

  it('wraps an Anthropic thinking signature so it comes back from the client intact', async () => {
    const context = contextFor();
    const decoder = anthropicAdapter.text.createStreamDecoder(context.request);
    const events = fixtureChunks('anthropic/messages/anthropic-clear-thinking.1.chunks.txt').flatMap((line) => decoder.push(JSON.parse(line).type as string, line));
    const signature = events.flatMap((event) => (event.type === 'block-end' && event.blob ? [event.blob] : []))[0];
    expect(signature?.provider).toBe('anthropic');
    const response = await sdkFinal(encode(events, context));
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.encrypted_content).toBeTruthy();
    // The client echoes the item on its next turn: the signature must decode back to Anthropic's.
    const next = responsesFormat.decodeRequest({ model: 'm', input: [{ role: 'user', content: 'q' }, reasoning] });
    const part = next.messages[1]?.content[0];
    expect(part).toMatchObject({ type: 'reasoning', blob: signature });
  });
});

describe('namespaced tools and errors through the SDK', () => {
  it('splits a flattened namespaced call back into name and namespace', async () => {
    const context = contextFor({
      tools: [{ type: 'namespace', name: 'multi_agent_v1', description: 'agents', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object' } }] }],
    });
    const tools: readonly IrTool[] = context.request.tools ?? [];
    expect(tools.map((tool) => tool.name)).toEqual(['multi_agent_v1__spawn_agent']);
    const events: IrStreamEvent[] = [
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'call_1', name: 'multi_agent_v1__spawn_agent' } },
      { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '{"message":"go"}' } },
      { type: 'block-end', index: 0 },
      { type: 'response-end', finish: { reason: 'tool-calls' }, usage: { inputUncached: 1, cacheRead: 0, cacheWrite: 0, output: 1, reasoning: 0 } },
    ];
    const response = await sdkFinal(encode(events, context));
    expect(response.output[0]).toMatchObject({ type: 'function_call', name: 'spawn_agent', namespace: 'multi_agent_v1', call_id: 'call_1', arguments: '{"message":"go"}' });
  });

  it('the SDK raises the error a failed stream carries', async () => {
    const context = contextFor();
    const lines = fixtureChunks('openai/responses/openai-error.1.chunks.txt');
    const events = decodeResponsesLines(lines, context);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    await expect(sdkFinal(encode(events, context))).rejects.toThrow(/exceeded your current quota/);
    const transportFailure = responsesFormat.encodeStreamError(new GatewayError('upstream_error', 'connection reset'), 'req_1');
    await expect(sdkFinal(encode(events.slice(0, 1), context) + transportFailure)).rejects.toThrow(/connection reset/);
  });

  it('tolerates the keep-alive between events', async () => {
    const context = contextFor();
    const encoder = responsesFormat.createStreamEncoder(context);
    const lines = readStreams('openai/responses/azure-text.1.chunks.txt')[0] ?? [];
    const sse = decodeResponsesLines(lines, context).map((event) => encoder.encode(event) + encoder.keepAlive()).join('');
    expect((await sdkFinal(sse)).output_text).toBe('Hello');
  });
});

function readAnthropicStreams(): string[] {
  return [
    'anthropic-text.chunks.txt',
    'anthropic-tool-no-args.chunks.txt',
    'anthropic-json-tool.1.chunks.txt',
    'anthropic-clear-thinking.1.chunks.txt',
    'anthropic-refusal.chunks.txt',
    'anthropic-message-delta-input-tokens.chunks.txt',
    'anthropic-web-search-tool.1.chunks.txt',
  ];
}
