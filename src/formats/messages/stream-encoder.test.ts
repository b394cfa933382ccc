import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { IrStreamEvent } from '../../ir/index.js';
import { anthropicAdapter } from '../../providers/anthropic/index.js';
import { createOpenAIChatAdapter } from '../../providers/openai/openai-adapters.js';
import { chatStreamFixtures } from '../../wire/chat/chat-fixtures.test-support.js';
import { messagesFormat } from './index.js';
import { encodeAll, encodeContext, essentials, parseSse, replay, sdkFinalMessage } from './messages-fixtures.test-support.js';
import { fixtureChunks } from '../../../test/support/fixtures.js';
import { sse, typedEvents } from '../../../test/support/sse.js';

/** A Messages recording rebuilt as the SSE bytes Anthropic sent (`event:` = the data's type). */
const recordedSse = (lines: readonly string[]): string => sse(typedEvents(lines));

const request = messagesFormat.decodeRequest({ model: 'public-model', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }], stream: true });

function encodeEvents(events: readonly IrStreamEvent[]): string {
  return encodeAll(messagesFormat.createStreamEncoder(encodeContext(request)), events);
}

/** Recorded Anthropic stream → Anthropic stream decoder → IR → our encoder → SSE text. */
function reencodeAnthropic(file: string): string {
  return encodeEvents(replay(anthropicAdapter.text.createStreamDecoder(request), fixtureChunks(`anthropic/messages/${file}`)));
}

/** Recorded chat stream → chat stream decoder → IR events. */
function chatEvents(lines: readonly string[]): IrStreamEvent[] {
  return replay(createOpenAIChatAdapter('openai-compatible').text.createStreamDecoder(request), lines, false);
}

/**
 * Checks the Messages framing rules the SDK and Claude Code rely on: message_start first, block
 * indexes 0, 1, 2… in order, one block open at a time, every block stopped, message_stop last.
 */
function expectWellFormed(sse: string): void {
  const events = parseSse(sse);
  expect(events[0]?.event).toBe('message_start');
  expect(events.at(-1)?.event).toBe('message_stop');
  expect(events.at(-2)?.event).toBe('message_delta');
  let open: number | undefined;
  let next = 0;
  for (const { event, data } of events) {
    expect(data['type']).toBe(event);
    if (event === 'content_block_start') {
      expect(open).toBeUndefined();
      expect(data['index']).toBe(next);
      open = next;
      next += 1;
    } else if (event === 'content_block_delta') {
      expect(data['index']).toBe(open);
    } else if (event === 'content_block_stop') {
      expect(data['index']).toBe(open);
      open = undefined;
    }
  }
  expect(open).toBeUndefined();
}

const roundTrips = [
  'anthropic-text.chunks.txt',
  'anthropic-tool-no-args.chunks.txt',
  'anthropic-json-tool.1.chunks.txt',
  'anthropic-clear-thinking.1.chunks.txt',
  'anthropic-message-delta-input-tokens.chunks.txt',
  'anthropic-refusal.chunks.txt',
] as const;

describe('Messages stream encoder: recorded Anthropic streams through the IR', () => {
  it.each(roundTrips)('gives the SDK the same final message for %s as the recording itself', async (file) => {
    const recorded = await sdkFinalMessage(recordedSse(fixtureChunks(`anthropic/messages/${file}`)));
    const sse = reencodeAnthropic(file);
    expectWellFormed(sse);
    const ours = await sdkFinalMessage(sse);
    expect(essentials(ours)).toEqual(essentials(recorded));
    expect(ours.id).toBe(recorded.id);
    expect(ours.model).toBe('public-model');
  });

  it('sends the recorded thinking stream block for block, signature_delta just before the stop', () => {
    const lines = fixtureChunks('anthropic/messages/anthropic-clear-thinking.1.chunks.txt');
    const contentEvents = (events: { event: string; data: Record<string, unknown> }[]) =>
      events.filter(({ event, data }) => {
        if (!event.startsWith('content_block')) return false;
        const delta = data['delta'] as Record<string, unknown> | undefined;
        // The recording has an empty thinking_delta, which carries nothing and is not repeated.
        return delta === undefined || (delta['thinking'] !== '' && delta['text'] !== '');
      });
    const recorded = contentEvents(parseSse(recordedSse(lines)));
    const ours = contentEvents(parseSse(reencodeAnthropic('anthropic-clear-thinking.1.chunks.txt')));
    expect(ours).toEqual(recorded);
    const firstStop = ours.findIndex(({ event }) => event === 'content_block_stop');
    expect(ours[firstStop - 1]?.data['delta']).toMatchObject({ type: 'signature_delta' });
  });

  it('keeps the text of a server-tool stream (server blocks themselves have no IR form)', async () => {
    const file = 'anthropic-web-search-tool.1.chunks.txt';
    const recorded = await sdkFinalMessage(recordedSse(fixtureChunks(`anthropic/messages/${file}`)));
    const sse = reencodeAnthropic(file);
    expectWellFormed(sse);
    const ours = await sdkFinalMessage(sse);
    const texts = (message: typeof ours) => message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    expect(texts(ours)).toEqual(texts(recorded));
    expect(texts(ours).length).toBeGreaterThan(3);
    expect(essentials(ours)).toMatchObject({ stop_reason: recorded.stop_reason, usage: (essentials(recorded) as { usage: unknown }).usage });
  });

  it('starts with the input tokens known at message_start and a token of output', () => {
    const [start] = parseSse(reencodeAnthropic('anthropic-tool-no-args.chunks.txt'));
    expect(start).toEqual({
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_01GE2RKp1VYsPzdFs3sS9z5S',
          type: 'message',
          role: 'assistant',
          model: 'public-model',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 565, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7 },
        },
      },
    });
  });
});

describe('Messages stream encoder: recorded chat streams', () => {
  for (const fixture of chatStreamFixtures) {
    it(`turns the ${fixture.name} stream into blocks the SDK assembles correctly`, async () => {
      const events = chatEvents(fixtureChunks(fixture.chunks));
      const sse = encodeEvents(events);
      expectWellFormed(sse);
      const message = await sdkFinalMessage(sse);

      // What the IR said, block by block, in order of start.
      const expected: unknown[] = [];
      const byIndex = new Map<number, { kind: string; text: string; id?: string; name?: string }>();
      for (const event of events) {
        if (event.type === 'block-start') {
          const block = event.block;
          const entry = block.kind === 'tool-call' ? { kind: block.kind, text: '', id: block.id, name: block.name } : { kind: block.kind, text: '' };
          byIndex.set(event.index, entry);
          expected.push(entry);
        } else if (event.type === 'block-delta') {
          const entry = byIndex.get(event.index);
          if (entry !== undefined) entry.text += event.delta.text;
        }
      }
      const blocks = expected.map((value) => {
        const entry = value as { kind: string; text: string; id?: string; name?: string };
        if (entry.kind === 'text') return { type: 'text', text: entry.text };
        if (entry.kind === 'reasoning') return { type: 'thinking', thinking: entry.text, signature: '' };
        return { type: 'tool_use', id: entry.id, name: entry.name, input: JSON.parse(entry.text === '' ? '{}' : entry.text) as unknown };
      });
      expect(message.content).toEqual(blocks);
      const end = events.at(-1);
      if (end?.type !== 'response-end') throw new Error('the chat stream did not end');
      expect(message.stop_reason).toBe(blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
      expect(message.usage).toMatchObject({
        input_tokens: end.usage.inputUncached,
        cache_read_input_tokens: end.usage.cacheRead,
        output_tokens: end.usage.output + end.usage.reasoning,
      });
    });
  }

  it('gives the deepseek tool call its parsed input and the reasoning as thinking', async () => {
    const message = await sdkFinalMessage(encodeEvents(chatEvents(fixtureChunks('openai-compatible/chat/deepseek-tool-call.chunks.txt'))));
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(message.content[1]).toEqual({ type: 'tool_use', id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', name: 'weather', input: { location: 'San Francisco' } });
    expect(message.usage).toMatchObject({ input_tokens: 19, cache_read_input_tokens: 320, output_tokens: 83 });
  });

  it('serialises parallel tool calls whose fragments interleave, without interleaving blocks', async () => {
    // No recording streams interleaved calls; this reuses the recorded groq chunk envelope.
    const [template] = fixtureChunks('openai-compatible/chat/groq-tool-call.chunks.txt');
    const envelope = JSON.parse(template ?? '{}') as Record<string, unknown>;
    const chunk = (delta: unknown, finish: string | null = null, usage?: unknown) =>
      JSON.stringify({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(usage === undefined ? {} : { usage }) });
    const lines = [
      chunk({ role: 'assistant', content: 'Checking both.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"loc' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"tz"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ation":"Oslo"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: ':"CET"}' } }] }),
      chunk({}, 'tool_calls', { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 }),
    ];
    const sse = encodeEvents(chatEvents(lines));
    expectWellFormed(sse);
    const message = await sdkFinalMessage(sse);
    expect(message.content).toEqual([
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'call_a', name: 'weather', input: { location: 'Oslo' } },
      { type: 'tool_use', id: 'call_b', name: 'time', input: { tz: 'CET' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 9 });
  });
});

describe('Messages stream encoder: state machine', () => {
  const start: IrStreamEvent = { type: 'response-start', id: 'resp_1', model: 'upstream', created: 1, usage: { inputUncached: 40, cacheRead: 8, cacheWrite: 0, output: 0, reasoning: 0 } };
  const end: IrStreamEvent = { type: 'response-end', finish: { reason: 'stop' }, usage: { inputUncached: 40, cacheRead: 8, cacheWrite: 0, output: 12, reasoning: 4 } };

  function frames(events: readonly IrStreamEvent[]): unknown[] {
    return parseSse(encodeEvents(events)).map(({ data }) => {
      const { type, index, delta, content_block: block } = data;
      return [type, index, delta ?? block].filter((value) => value !== undefined);
    });
  }

  it('buffers a block that starts while another is on the wire and flushes it, in order of start', () => {
    expect(
      frames([
        start,
        { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'a', name: 'f' } },
        { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '{"a"' } },
        { type: 'block-start', index: 1, block: { kind: 'tool-call', id: 'b', name: 'g' } },
        { type: 'block-delta', index: 1, delta: { kind: 'tool-arguments', text: '{"b":2}' } },
        { type: 'block-end', index: 1 },
        { type: 'block-start', index: 2, block: { kind: 'tool-call', id: 'c', name: 'h' } },
        { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: ':1}' } },
        { type: 'block-end', index: 0 },
        { type: 'block-delta', index: 2, delta: { kind: 'tool-arguments', text: '{}' } },
        { type: 'block-end', index: 2 },
        { ...end, finish: { reason: 'tool-calls' } },
      ]),
    ).toEqual([
      ['message_start'],
      ['content_block_start', 0, { type: 'tool_use', id: 'a', name: 'f', input: {} }],
      ['content_block_delta', 0, { type: 'input_json_delta', partial_json: '{"a"' }],
      ['content_block_delta', 0, { type: 'input_json_delta', partial_json: ':1}' }],
      ['content_block_stop', 0],
      ['content_block_start', 1, { type: 'tool_use', id: 'b', name: 'g', input: {} }],
      ['content_block_delta', 1, { type: 'input_json_delta', partial_json: '{"b":2}' }],
      ['content_block_stop', 1],
      ['content_block_start', 2, { type: 'tool_use', id: 'c', name: 'h', input: {} }],
      ['content_block_delta', 2, { type: 'input_json_delta', partial_json: '{}' }],
      ['content_block_stop', 2],
      ['message_delta', { stop_reason: 'tool_use', stop_sequence: null }],
      ['message_stop'],
    ]);
  });

  it('writes message_start from the IR start, and the cumulative usage in message_delta', () => {
    const events = parseSse(encodeEvents([start, { type: 'block-start', index: 0, block: { kind: 'text' } }, { type: 'block-end', index: 0 }, end]));
    expect(events[0]?.data['message']).toMatchObject({
      id: 'msg_resp_1',
      model: 'public-model',
      usage: { input_tokens: 40, cache_read_input_tokens: 8, cache_creation_input_tokens: 0, output_tokens: 1 },
    });
    expect(events.at(-2)?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 8, output_tokens: 16, output_tokens_details: { thinking_tokens: 4 } },
    });
  });

  it('states the estimate as input at message_start when the upstream reports input only at the end, and the upstream figure in message_delta', () => {
    const silentStart: IrStreamEvent = { type: 'response-start', id: 'resp_1', model: 'upstream', created: 1 };
    const encoder = messagesFormat.createStreamEncoder({ ...encodeContext(request), inputTokensEstimate: 37 });
    const events = parseSse(encodeAll(encoder, [silentStart, { type: 'block-start', index: 0, block: { kind: 'text' } }, { type: 'block-end', index: 0 }, end]));
    expect(events[0]?.data['message']).toMatchObject({
      usage: { input_tokens: 37, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 },
    });
    expect(events.at(-2)?.data['usage']).toMatchObject({ input_tokens: 40, cache_read_input_tokens: 8, output_tokens: 16 });
  });

  it('prefers the upstream\'s input at message_start over the estimate', () => {
    const encoder = messagesFormat.createStreamEncoder({ ...encodeContext(request), inputTokensEstimate: 37 });
    const events = parseSse(encodeAll(encoder, [start, end]));
    expect(events[0]?.data['message']).toMatchObject({ usage: { input_tokens: 40, cache_read_input_tokens: 8 } });
  });

  it('states 0 input at message_start when neither the upstream nor an estimate gives one', () => {
    const events = parseSse(encodeEvents([{ type: 'response-start', id: 'resp_1', model: 'upstream', created: 1 }, end]));
    expect(events[0]?.data['message']).toMatchObject({ usage: { input_tokens: 0 } });
  });

  it('uses the last usage event when the end carries no usage, and reports the matched stop sequence', () => {
    const usage = { inputUncached: 3, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 };
    const events = parseSse(
      encodeEvents([start, { type: 'usage', usage }, { type: 'response-end', finish: { reason: 'stop-sequence', stopSequence: 'END' }, usage: { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 } }]),
    );
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' }, usage: { input_tokens: 3, output_tokens: 2 } });
  });

  it('sends a signature_delta before the stop when reasoning ends with a blob, tagging another provider\'s', () => {
    expect(
      frames([
        start,
        { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
        { type: 'block-delta', index: 0, delta: { kind: 'reasoning', text: 'hmm' } },
        { type: 'block-end', index: 0, blob: { provider: 'openai', value: 'enc_1' } },
        { type: 'block-start', index: 1, block: { kind: 'reasoning' } },
        { type: 'block-end', index: 1 },
        { type: 'block-start', index: 2, block: { kind: 'reasoning', redacted: true, blob: { provider: 'anthropic', value: 'opaque' } } },
        { type: 'block-end', index: 2 },
        end,
      ]).slice(1, -2),
    ).toEqual([
      ['content_block_start', 0, { type: 'thinking', thinking: '', signature: '' }],
      ['content_block_delta', 0, { type: 'thinking_delta', thinking: 'hmm' }],
      ['content_block_delta', 0, { type: 'signature_delta', signature: 'switchyard.v1.openai.signed.enc_1' }],
      ['content_block_stop', 0],
      ['content_block_start', 1, { type: 'thinking', thinking: '', signature: '' }],
      ['content_block_stop', 1],
      ['content_block_start', 2, { type: 'redacted_thinking', data: 'opaque' }],
      ['content_block_stop', 2],
    ]);
  });

  it('hands a tool call\'s foreign signature out in a text-less thinking block just before the tool_use', () => {
    expect(
      frames([
        start,
        { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'a', name: 'f', blob: { provider: 'gemini', value: 'sig-call' } } },
        { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '{}' } },
        { type: 'block-end', index: 0 },
        { type: 'block-start', index: 1, block: { kind: 'tool-call', id: 'b', name: 'g' } },
        { type: 'block-end', index: 1 },
        { ...end, finish: { reason: 'tool-calls' } },
      ]).slice(1, -2),
    ).toEqual([
      ['content_block_start', 0, { type: 'thinking', thinking: '', signature: '' }],
      ['content_block_delta', 0, { type: 'signature_delta', signature: 'switchyard.v1.gemini.signed.sig-call' }],
      ['content_block_stop', 0],
      ['content_block_start', 1, { type: 'tool_use', id: 'a', name: 'f', input: {} }],
      ['content_block_delta', 1, { type: 'input_json_delta', partial_json: '{}' }],
      ['content_block_stop', 1],
      ['content_block_start', 2, { type: 'tool_use', id: 'b', name: 'g', input: {} }],
      ['content_block_stop', 2],
    ]);
  });

  it('puts an OpenAI reasoning item id into the signature tag', () => {
    const signatures = frames([
      start,
      { type: 'block-start', index: 0, block: { kind: 'reasoning', itemId: 'rs_123' } },
      { type: 'block-end', index: 0, blob: { provider: 'openai', value: 'enc_1' } },
      end,
    ]).filter((frame) => JSON.stringify(frame).includes('signature_delta'));
    expect(signatures).toEqual([['content_block_delta', 0, { type: 'signature_delta', signature: 'switchyard.v1.openai.item-rs_123.enc_1' }]]);
  });

  it('closes blocks left open at the end, wraps custom tool input, and starts the message when a block comes first', () => {
    expect(
      frames([
        { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'p', name: 'apply_patch', toolKind: 'custom' } },
        { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '*** Begin' } },
        { type: 'block-start', index: 1, block: { kind: 'text' } },
        { type: 'block-delta', index: 1, delta: { kind: 'text', text: 'late' } },
        end,
      ]),
    ).toEqual([
      ['message_start'],
      ['content_block_start', 0, { type: 'tool_use', id: 'p', name: 'apply_patch', input: {} }],
      ['content_block_delta', 0, { type: 'input_json_delta', partial_json: '{"input":"*** Begin"}' }],
      ['content_block_stop', 0],
      ['content_block_start', 1, { type: 'text', text: '' }],
      ['content_block_delta', 1, { type: 'text_delta', text: 'late' }],
      ['content_block_stop', 1],
      ['message_delta', { stop_reason: 'tool_use', stop_sequence: null }],
      ['message_stop'],
    ]);
  });

  it('ends with the error event alone after a mid-stream failure, as Anthropic does', () => {
    const encoder = messagesFormat.createStreamEncoder(encodeContext(request));
    encoder.encode(start);
    encoder.encode({ type: 'block-start', index: 0, block: { kind: 'text' } });
    encoder.encode({ type: 'block-delta', index: 0, delta: { kind: 'text', text: 'par' } });
    const error = new GatewayError('upstream_unavailable', 'Overloaded', { upstreamType: 'overloaded_error' });
    const text = encoder.encode({ type: 'error', error });
    expect(parseSse(text)).toEqual([
      { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_test' } },
    ]);
    expect(encoder.encode({ type: 'block-end', index: 0 })).toBe('');
    expect(encoder.encode(end)).toBe('');
  });

  it('sends a named ping as keep-alive', () => {
    expect(messagesFormat.createStreamEncoder(encodeContext(request)).keepAlive()).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });
});
