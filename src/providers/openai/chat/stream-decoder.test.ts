import { describe, expect, it } from 'vitest';
import type { IrStreamEvent, OutputPart, Usage } from '../../../ir/index.js';
import { chatStreamFixtures } from '../../../wire/chat/chat-fixtures.test-support.js';
import { decodeChatResponse } from './decode-response.js';
import { createChatStreamDecoder } from './stream-decoder.js';
import { fixtureChunks, readJsonFixture } from '../../../../test/support/fixtures.js';

function replay(lines: readonly string[], withDone = true): IrStreamEvent[] {
  const decoder = createChatStreamDecoder();
  const events = lines.flatMap((line) => decoder.push(undefined, line));
  if (withDone) events.push(...decoder.push(undefined, '[DONE]'));
  events.push(...decoder.end());
  return events;
}

/** Checks the IR stream grammar and folds the events into output parts. */
function accumulate(events: readonly IrStreamEvent[]): { content: OutputPart[]; end: Extract<IrStreamEvent, { type: 'response-end' }> } {
  expect(events[0]?.type).toBe('response-start');
  const last = events[events.length - 1];
  if (last?.type !== 'response-end') throw new Error(`stream ended with ${last?.type}`);
  expect(events.filter((event) => event.type === 'response-end')).toHaveLength(1);
  const open = new Map<number, OutputPart>();
  const done: { index: number; part: OutputPart }[] = [];
  for (const event of events) {
    if (event.type === 'block-start') {
      expect(open.has(event.index)).toBe(false);
      const block = event.block;
      open.set(
        event.index,
        block.kind === 'tool-call'
          ? { type: 'tool-call', id: block.id, name: block.name, arguments: '' }
          : block.kind === 'text'
            ? { type: 'text', text: '' }
            : { type: 'reasoning', text: '' },
      );
    } else if (event.type === 'block-delta') {
      const part = open.get(event.index);
      if (part === undefined) throw new Error(`delta for closed block ${event.index}`);
      open.set(event.index, part.type === 'tool-call' ? { ...part, arguments: part.arguments + event.delta.text } : { ...part, text: part.text + event.delta.text });
    } else if (event.type === 'block-end') {
      const part = open.get(event.index);
      if (part === undefined) throw new Error(`end for closed block ${event.index}`);
      done.push({ index: event.index, part });
      open.delete(event.index);
    }
  }
  expect(open.size).toBe(0);
  return { content: done.sort((a, b) => a.index - b.index).map((entry) => entry.part), end: last };
}

const expectedStreamUsage: Record<string, Usage> = {
  'openai text': { inputUncached: 16, cacheRead: 0, cacheWrite: 0, output: 300, reasoning: 0 },
  'azure model router': { inputUncached: 15, cacheRead: 0, cacheWrite: 0, output: 14, reasoning: 64 },
  'deepseek tool call': { inputUncached: 19, cacheRead: 320, cacheWrite: 0, output: 44, reasoning: 39 },
  'xai tool call': { inputUncached: 1, cacheRead: 306, cacheWrite: 0, output: 26, reasoning: 227 },
  'groq tool call': { inputUncached: 210, cacheRead: 0, cacheWrite: 0, output: 15, reasoning: 0 },
};

describe('chat stream decoder on recorded streams', () => {
  for (const fixture of chatStreamFixtures) {
    it(`replays ${fixture.name} into a well-formed IR stream with exact usage`, () => {
      const { end } = accumulate(replay(fixtureChunks(fixture.chunks)));
      expect(end.usage).toEqual(expectedStreamUsage[fixture.name]);
    });

    if (fixture.body !== undefined) {
      const bodyFile = fixture.body;
      it(`agrees with the non-streamed ${fixture.name} body on kinds of output, tool names and finish`, () => {
        const streamed = accumulate(replay(fixtureChunks(fixture.chunks)));
        const whole = decodeChatResponse(readJsonFixture(bodyFile));
        expect(streamed.content.map((part) => part.type)).toEqual(whole.content.map((part) => part.type));
        expect(streamed.end.finish).toEqual(whole.finish);
        const streamedCalls = streamed.content.filter((part) => part.type === 'tool-call');
        const wholeCalls = whole.content.filter((part) => part.type === 'tool-call');
        expect(streamedCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual(
          wholeCalls.map((call) => [call.name, JSON.parse(call.arguments)]),
        );
      });
    }
  }

  it('joins the OpenAI text deltas into the full answer and starts with the upstream id', () => {
    const events = replay(fixtureChunks('openai/chat/openai-text.chunks.txt'));
    expect(events[0]).toEqual({ type: 'response-start', id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0', model: 'gpt-4.1-nano-2025-04-14', created: 1770933892 });
    const { content, end } = accumulate(events);
    expect(content).toHaveLength(1);
    const text = content[0];
    expect(text?.type === 'text' && text.text.startsWith('**Holiday Name:** Harmony Day\n\n**Date:**')).toBe(true);
    expect(end.finish).toEqual({ reason: 'stop', raw: 'stop' });
  });

  it('ignores the Azure leading chunk that has no choices and takes id and model from the next', () => {
    const events = replay(fixtureChunks('openai/chat/azure-model-router.1.chunks.txt'));
    expect(events[0]).toMatchObject({ type: 'response-start', id: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt', model: 'gpt-5-nano-2025-08-07' });
    const { content } = accumulate(events);
    expect(content).toEqual([{ type: 'text', text: 'Capital of Denmark.' }]);
  });

  it('joins DeepSeek reasoning_content and fragmented tool arguments into one reasoning part and one call', () => {
    const { content, end } = accumulate(replay(fixtureChunks('openai-compatible/chat/deepseek-tool-call.chunks.txt')));
    expect(content.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
    const [reasoning, call] = content;
    expect(reasoning?.type === 'reasoning' && reasoning.text.startsWith('The user is asking')).toBe(true);
    expect(call).toEqual({ type: 'tool-call', id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', name: 'weather', arguments: '{"location": "San Francisco"}' });
    expect(end.finish).toEqual({ reason: 'tool-calls', raw: 'tool_calls' });
  });

  it('takes whole tool calls delivered in one delta (xAI, Groq)', () => {
    const xai = accumulate(replay(fixtureChunks('openai-compatible/chat/xai-tool-call.chunks.txt')));
    expect(xai.content.at(-1)).toEqual({ type: 'tool-call', id: 'call_79382389', name: 'weather', arguments: '{"location":"San Francisco"}' });
    const groq = accumulate(replay(fixtureChunks('openai-compatible/chat/groq-tool-call.chunks.txt')));
    expect(groq.content).toEqual([{ type: 'tool-call', id: 'tk85n1k4m', name: 'weather', arguments: '{}' }]);
  });

  it('waits for usage that follows the finish chunk before ending the response', () => {
    const lines = fixtureChunks('openai/chat/openai-text.chunks.txt');
    const decoder = createChatStreamDecoder();
    const beforeUsage = lines.slice(0, -1).flatMap((line) => decoder.push(undefined, line));
    expect(beforeUsage.some((event) => event.type === 'response-end')).toBe(false);
    const rest = [...decoder.push(undefined, lines.at(-1) ?? ''), ...decoder.push(undefined, '[DONE]')];
    expect(rest.at(-1)).toMatchObject({ type: 'response-end', usage: expectedStreamUsage['openai text'] });
    expect(decoder.end()).toEqual([]);
  });

  it('ends the response at end() when an upstream omits [DONE] after the finish', () => {
    const { end } = accumulate(replay(fixtureChunks('openai-compatible/chat/groq-tool-call.chunks.txt'), false));
    expect(end.finish.reason).toBe('tool-calls');
  });

  it('closes open blocks and reports an error when the stream stops before a finish', () => {
    const lines = fixtureChunks('openai-compatible/chat/deepseek-tool-call.chunks.txt').slice(0, 40);
    const events = replay(lines, false);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.code).toBe('upstream_invalid_response');
    expect(last?.type === 'error' && last.error.message).toMatch(/ended early/);
    const started = events.filter((event) => event.type === 'block-start').length;
    expect(events.filter((event) => event.type === 'block-end')).toHaveLength(started);
  });

  it('turns a mid-stream error payload into an error event and ignores what follows', () => {
    const decoder = createChatStreamDecoder();
    const [first] = fixtureChunks('openai/chat/openai-text.chunks.txt');
    decoder.push(undefined, first ?? '');
    const events = decoder.push(undefined, '{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}');
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    const error = events.at(-1);
    expect(error?.type === 'error' && [error.error.code, error.error.message, error.error.upstreamType]).toEqual(['upstream_error', 'The server had an error', 'server_error']);
    expect(decoder.push(undefined, '[DONE]')).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it("turns vLLM's mid-stream error object into an error event with its message", () => {
    const decoder = createChatStreamDecoder();
    const [first] = fixtureChunks('openai/chat/openai-text.chunks.txt');
    decoder.push(undefined, first ?? '');
    const events = decoder.push(undefined, '{"object":"error","message":"This model\'s maximum context length is 4096 tokens","type":"BadRequestError","param":null,"code":400}');
    const error = events.at(-1);
    expect(error?.type === 'error' && [error.error.code, error.error.message]).toEqual(['upstream_error', "This model's maximum context length is 4096 tokens"]);
    expect(decoder.push(undefined, '[DONE]')).toEqual([]);
  });

  it('gives several parallel calls in one chunk their own blocks, in index order', () => {
    const chunk = (delta: unknown, finish: string | null = null) =>
      JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
    const events = replay([
      chunk({ role: 'assistant', content: null }),
      chunk({ tool_calls: [
        { index: 0, id: 'call_a', type: 'function', function: { name: 'a', arguments: '' } },
        { index: 1, id: 'call_b', type: 'function', function: { name: 'b', arguments: '{"x"' } },
      ] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }, { index: 1, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const { content } = accumulate(events);
    expect(content).toEqual([
      { type: 'tool-call', id: 'call_a', name: 'a', arguments: '{}' },
      { type: 'tool-call', id: 'call_b', name: 'b', arguments: '{"x":1}' },
    ]);
  });

  it('opens a new block when text follows a tool call and reads `reasoning` deltas too', () => {
    const chunk = (delta: unknown, finish: string | null = null) => JSON.stringify({ id: 'c', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
    const { content } = accumulate(
      replay([chunk({ reasoning: 'think' }), chunk({ content: 'Hi' }), chunk({ tool_calls: [{ index: 0, id: 't', function: { name: 'f', arguments: '{}' } }] }), chunk({ content: 'after' }, 'stop')]),
    );
    expect(content.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call', 'text']);
  });

  it('reports an error for a payload that is not JSON', () => {
    const events = createChatStreamDecoder().push(undefined, 'not json');
    expect(events).toMatchObject([{ type: 'error' }]);
  });
});
