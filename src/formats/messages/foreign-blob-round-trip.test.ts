import type { Message } from '@anthropic-ai/sdk/resources/messages/messages';
import { describe, expect, it } from 'vitest';
import type { IrRequest, IrStreamEvent } from '../../ir/index.js';
import { geminiAdapter } from '../../providers/gemini/index.js';
import { openAIResponsesAdapter } from '../../providers/openai/openai-adapters.js';
import type { TextProviderAdapter, UpstreamTarget } from '../../providers/provider-adapter.js';
import { messagesFormat } from './index.js';
import { encodeAll, encodeContext, replay, sdkCreate, sdkFinalMessage } from './messages-fixtures.test-support.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

/**
 * Reasoning blobs of other providers, handed to a Messages client and echoed back by it as the
 * SDK returned them: each must reach its own provider in its native slot on the next turn.
 * Recorded upstream answers → IR → Messages (JSON or SSE, read by the real SDK) → echoed history
 * → IR → the upstream's request body.
 */
const firstTurn = { model: 'public-model', max_tokens: 1024, messages: [{ role: 'user', content: 'Weather in SF?' }] };

function target(adapter: TextProviderAdapter): UpstreamTarget {
  return { providerName: 'test', kind: adapter.kind, baseUrl: 'https://upstream.test', apiKey: 'k', model: 'm' };
}

/** The next turn's upstream body after the client echoed `message` and answered its tool calls. */
function nextTurnBody(adapter: TextProviderAdapter, message: Message): Record<string, unknown> {
  const results = message.content.flatMap((block) => (block.type === 'tool_use' ? [{ type: 'tool_result', tool_use_id: block.id, content: 'sunny' }] : []));
  const request: IrRequest = messagesFormat.decodeRequest({
    ...firstTurn,
    messages: [...firstTurn.messages, { role: 'assistant', content: message.content }, { role: 'user', content: results.length > 0 ? results : 'and tomorrow?' }],
  });
  return JSON.parse(adapter.text.buildRequest(request, target(adapter), {}).body) as Record<string, unknown>;
}

function viaJson(adapter: TextProviderAdapter, body: unknown): Promise<Message> {
  const request = messagesFormat.decodeRequest(firstTurn);
  return sdkCreate(messagesFormat.encodeResponse(adapter.text.decodeResponse(body, request), encodeContext(request)));
}

function viaStream(events: readonly IrStreamEvent[]): Promise<Message> {
  const request = messagesFormat.decodeRequest({ ...firstTurn, stream: true });
  return sdkFinalMessage(encodeAll(messagesFormat.createStreamEncoder(encodeContext(request)), events));
}

type GeminiPart = { functionCall?: { name: string }; thoughtSignature?: string; text?: string };

function modelParts(body: Record<string, unknown>): GeminiPart[] {
  const contents = body['contents'] as { role: string; parts: GeminiPart[] }[];
  return contents.filter((content) => content.role === 'model').flatMap((content) => content.parts);
}

/** The first streamed response of a recording that holds several consecutive streams. */
function firstStream(lines: readonly string[]): string[] {
  const second = lines.findIndex((line, index) => index > 0 && line.includes('"type":"response.created"'));
  return second === -1 ? [...lines] : lines.slice(0, second);
}

describe('Messages client, Gemini upstream: the signature Gemini put on its function call', () => {
  const recorded = readJsonFixture('google/generate-content/google-tool-call-gemini3.json') as {
    candidates: { content: { parts: GeminiPart[] } }[];
  };
  const signature = recorded.candidates[0]?.content.parts.find((part) => part.functionCall !== undefined)?.thoughtSignature ?? '';

  it('is handed out in a text-less thinking block right before the tool_use', async () => {
    const message = await viaJson(geminiAdapter, recorded);
    expect(signature).not.toBe('');
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: '', signature: `switchyard.v1.gemini.signed.${signature}` });
  });

  it('goes back on the functionCall part, with no separate part and no stand-in (JSON answer)', async () => {
    const parts = modelParts(nextTurnBody(geminiAdapter, await viaJson(geminiAdapter, recorded)));
    expect(parts).toEqual([expect.objectContaining({ functionCall: expect.objectContaining({ name: 'weather' }), thoughtSignature: signature })]);
  });

  it('goes back on the functionCall part when the answer was streamed', async () => {
    const request = messagesFormat.decodeRequest({ ...firstTurn, stream: true });
    const decoder = geminiAdapter.text.createStreamDecoder(request);
    const lines = fixtureChunks('google/generate-content/google-tool-call-gemini3.chunks.txt');
    const message = await viaStream([...lines.flatMap((line) => decoder.push(undefined, line)), ...decoder.end()]);
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const parts = modelParts(nextTurnBody(geminiAdapter, message));
    const streamed = lines.map((line) => JSON.parse(line) as typeof recorded).flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    const streamedSignature = streamed.find((part) => part.functionCall !== undefined)?.thoughtSignature;
    expect(streamedSignature).toBeDefined();
    expect(parts.find((part) => part.functionCall !== undefined)?.thoughtSignature).toBe(streamedSignature);
    expect(JSON.stringify(parts)).not.toContain('skip_thought_signature_validator');
  });
});

describe('Messages client, OpenAI Responses upstream: encrypted reasoning', () => {
  function reasoningItems(body: Record<string, unknown>): Record<string, unknown>[] {
    return (body['input'] as Record<string, unknown>[]).filter((item) => item['type'] === 'reasoning');
  }

  it('carries its rs_ item id in the signature tag and goes back as the same reasoning item (JSON answer)', async () => {
    const recorded = readJsonFixture('openai/responses/openai-reasoning-encrypted-content.1.json') as { output: Record<string, unknown>[] };
    const item = recorded.output.find((entry) => entry['type'] === 'reasoning') ?? {};
    const message = await viaJson(openAIResponsesAdapter, recorded);
    const thinking = message.content.find((block) => block.type === 'thinking');
    expect(thinking?.type === 'thinking' && thinking.signature).toBe(`switchyard.v1.openai.item-${String(item['id'])}.${String(item['encrypted_content'])}`);
    expect(reasoningItems(nextTurnBody(openAIResponsesAdapter, message))).toEqual([
      expect.objectContaining({ type: 'reasoning', id: item['id'], encrypted_content: item['encrypted_content'] }),
    ]);
  });

  it('goes back as the same reasoning item when the answer was streamed', async () => {
    const lines = firstStream(fixtureChunks('openai/responses/openai-reasoning-encrypted-content.1.chunks.txt'));
    const done = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((event) => event['type'] === 'response.output_item.done' && (event['item'] as Record<string, unknown>)['type'] === 'reasoning');
    const item = (done?.['item'] ?? {}) as Record<string, unknown>;
    const message = await viaStream(replay(openAIResponsesAdapter.text.createStreamDecoder(messagesFormat.decodeRequest(firstTurn)), lines));
    const sent = reasoningItems(nextTurnBody(openAIResponsesAdapter, message));
    expect(sent).toEqual([expect.objectContaining({ type: 'reasoning', id: item['id'], encrypted_content: item['encrypted_content'] })]);
    expect(String(item['id'])).toMatch(/^rs_/);
  });
});
