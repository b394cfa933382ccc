import { describe, expect, it } from 'vitest';
import type { IrResponse } from '../../ir/index.js';
import { anthropicAdapter } from '../../providers/anthropic/index.js';
import { createOpenAIChatAdapter } from '../../providers/openai/openai-adapters.js';
import { messagesFormat } from './index.js';
import { encodeContext, sdkCreate } from './messages-fixtures.test-support.js';
import { readJsonFixture } from '../../../test/support/fixtures.js';

const request = messagesFormat.decodeRequest({ model: 'public-model', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] });
const context = encodeContext(request);

const anthropicBodies = [
  'anthropic-text.json',
  'anthropic-tool-no-args.json',
  'anthropic-json-tool.1.json',
  'anthropic-clear-thinking.1.json',
  'anthropic-claude-opus-5-reasoning-high.1.json',
  'anthropic-refusal.json',
  'anthropic-web-search-tool.1.json',
  'anthropic-web-fetch-tool.error.json',
] as const;

/**
 * The recorded body as a gateway client should see it: our model name, no null-only optional
 * fields, and `stop_sequence` always present (the json-tool recording lacks it; the API's schema
 * makes it required).
 */
function asServed(body: unknown): Record<string, unknown> {
  const served: Record<string, unknown> = { stop_sequence: null, ...(body as Record<string, unknown>), model: 'public-model' };
  for (const [key, value] of Object.entries(served)) if (value === null && key !== 'stop_sequence') delete served[key];
  return served;
}

function response(content: IrResponse['content'], finish: IrResponse['finish'] = { reason: 'stop' }): IrResponse {
  return {
    id: 'chatcmpl-1',
    model: 'upstream-model',
    created: 1,
    content,
    finish,
    usage: { inputUncached: 10, cacheRead: 5, cacheWrite: 2, output: 7, reasoning: 3 },
  };
}

describe('Messages encodeResponse', () => {
  it.each(anthropicBodies)('gives back the recorded Anthropic message %s unchanged after a trip through the IR', (file) => {
    const body = readJsonFixture(`anthropic/messages/${file}`);
    const encoded = messagesFormat.encodeResponse(anthropicAdapter.text.decodeResponse(body, request), context);
    expect(encoded).toEqual(asServed(body));
  });

  it.each(anthropicBodies)('is parsed by the Anthropic SDK exactly like the recorded message %s', async (file) => {
    const body = readJsonFixture(`anthropic/messages/${file}`);
    const encoded = messagesFormat.encodeResponse(anthropicAdapter.text.decodeResponse(body, request), context);
    expect(await sdkCreate(encoded)).toEqual(await sdkCreate(asServed(body)));
  });

  it('turns a recorded chat tool-call answer into tool_use with an input object, thinking and tool_use stop reason', async () => {
    const chat = createOpenAIChatAdapter('openai-compatible');
    const decoded = chat.text.decodeResponse(readJsonFixture('openai-compatible/chat/deepseek-tool-call.json'), request);
    const message = await sdkCreate(messagesFormat.encodeResponse(decoded, { ...context, requestId: 'req_77' }));
    expect(message.id).toMatch(/^msg_/);
    expect(message.model).toBe('public-model');
    expect(message.stop_reason).toBe('tool_use');
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    const call = decoded.content.find((part) => part.type === 'tool-call');
    expect(toolUse).toEqual({ type: 'tool_use', id: call?.type === 'tool-call' && call.id, name: 'weather', input: { location: 'San Francisco' } });
    expect(message.content[0]).toMatchObject({ type: 'thinking', signature: '' });
    expect(message.usage).toMatchObject({
      input_tokens: decoded.usage.inputUncached,
      cache_read_input_tokens: decoded.usage.cacheRead,
      output_tokens: decoded.usage.output + decoded.usage.reasoning,
    });
  });

  it('writes every block kind, with input objects from any argument text and signatures from any blob (another provider\'s tagged)', () => {
    const encoded = messagesFormat.encodeResponse(
      response(
        [
          { type: 'reasoning', text: 'thought', blob: { provider: 'openai', value: 'enc_1' } },
          { type: 'reasoning', text: 'plain' },
          { type: 'reasoning', text: '', redacted: true, blob: { provider: 'anthropic', value: 'hidden' } },
          { type: 'text', text: 'Hello' },
          { type: 'tool-call', id: 'call_1', name: 'a', arguments: '{"x":1}' },
          { type: 'tool-call', id: 'call_2', name: 'b', arguments: '' },
          { type: 'tool-call', id: 'call_3', name: 'c', arguments: '{"broken' },
          { type: 'tool-call', id: 'call_4', name: 'd', arguments: '[1,2]' },
          { type: 'tool-call', id: 'call_5', name: 'patch', arguments: '*** Begin Patch', kind: 'custom' },
        ],
        { reason: 'tool-calls', raw: 'tool_calls' },
      ),
      context,
    );
    expect(encoded).toEqual({
      id: 'msg_chatcmpl-1',
      type: 'message',
      role: 'assistant',
      model: 'public-model',
      content: [
        { type: 'thinking', thinking: 'thought', signature: 'switchyard.v1.openai.signed.enc_1' },
        { type: 'thinking', thinking: 'plain', signature: '' },
        { type: 'redacted_thinking', data: 'hidden' },
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', id: 'call_1', name: 'a', input: { x: 1 } },
        { type: 'tool_use', id: 'call_2', name: 'b', input: {} },
        { type: 'tool_use', id: 'call_3', name: 'c', input: {} },
        { type: 'tool_use', id: 'call_4', name: 'd', input: {} },
        { type: 'tool_use', id: 'call_5', name: 'patch', input: { input: '*** Begin Patch' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, cache_creation_input_tokens: 2, cache_read_input_tokens: 5, output_tokens: 10, output_tokens_details: { thinking_tokens: 3 } },
    });
  });

  it('precedes a tool call signed by another provider with a text-less thinking block holding the tagged signature', () => {
    const encoded = messagesFormat.encodeResponse(
      response([
        { type: 'tool-call', id: 'call_1', name: 'a', arguments: '{}', blob: { provider: 'gemini', value: 'sig-call' } },
        { type: 'tool-call', id: 'call_2', name: 'b', arguments: '{}' },
      ]),
      context,
    ) as { content: unknown };
    expect(encoded.content).toEqual([
      { type: 'thinking', thinking: '', signature: 'switchyard.v1.gemini.signed.sig-call' },
      { type: 'tool_use', id: 'call_1', name: 'a', input: {} },
      { type: 'tool_use', id: 'call_2', name: 'b', input: {} },
    ]);
  });

  it('carries an OpenAI reasoning item id in the signature tag', () => {
    const encoded = messagesFormat.encodeResponse(
      response([{ type: 'reasoning', text: 'thought', blob: { provider: 'openai', value: 'enc_1' }, itemId: 'rs_9' }]),
      context,
    ) as { content: unknown };
    expect(encoded.content).toEqual([{ type: 'thinking', thinking: 'thought', signature: 'switchyard.v1.openai.item-rs_9.enc_1' }]);
  });

  it.each<[IrResponse['finish'], string, string | null]>([
    [{ reason: 'stop' }, 'end_turn', null],
    [{ reason: 'length', raw: 'length' }, 'max_tokens', null],
    [{ reason: 'content-filter', raw: 'content_filter' }, 'refusal', null],
    [{ reason: 'stop-sequence', stopSequence: 'END' }, 'stop_sequence', 'END'],
    [{ reason: 'length', raw: 'model_context_window_exceeded' }, 'model_context_window_exceeded', null],
  ])('maps finish %j to stop_reason %s', (finish, stopReason, stopSequence) => {
    const encoded = messagesFormat.encodeResponse(response([{ type: 'text', text: 'x' }], finish), context) as Record<string, unknown>;
    expect([encoded['stop_reason'], encoded['stop_sequence']]).toEqual([stopReason, stopSequence]);
  });

  it('says tool_use when an upstream ended a turn of tool calls with a plain stop', () => {
    const encoded = messagesFormat.encodeResponse(response([{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }], { reason: 'stop', raw: 'STOP' }), context);
    expect((encoded as Record<string, unknown>)['stop_reason']).toBe('tool_use');
  });

  it('uses the request id for the message id when the upstream gave none', () => {
    const encoded = messagesFormat.encodeResponse({ ...response([]), id: '' }, { ...context, requestId: 'req_abc' });
    expect((encoded as Record<string, unknown>)['id']).toBe('msg_req_abc');
  });
});
