import { describe, expect, it } from 'vitest';
import { parseDirectives } from './directives.js';
import { planReply } from './plan-reply.js';
import type { SimConversation } from './sim-conversation.js';
import { splitIntoPieces } from './text-pieces.js';

function conversation(overrides: Partial<SimConversation>): SimConversation {
  return {
    model: 'sim-model',
    userText: 'hello',
    toolResult: null,
    tools: [{ name: 'lookup', schema: { type: 'object', properties: { query: { type: 'string' } } } }],
    forcedTool: null,
    reasoningRequested: false,
    maxOutputTokens: null,
    inputCharacters: 9,
    ...overrides,
  };
}

describe('planReply', () => {
  it('echoes the user and counts input as ceil(characters / 4)', () => {
    const reply = planReply(conversation({}), parseDirectives('hello'));
    expect(reply.text?.text).toBe('You said: hello');
    expect(reply.usage).toEqual({ inputTokens: 3, cacheWriteTokens: 0, outputTokens: 3, reasoningTokens: 0 });
  });

  it('reports [cache:N] input tokens as cache writes, never more than the whole input', () => {
    expect(planReply(conversation({ inputCharacters: 40 }), parseDirectives('[cache:4]')).usage).toMatchObject({ inputTokens: 10, cacheWriteTokens: 4 });
    expect(planReply(conversation({ inputCharacters: 40 }), parseDirectives('[cache:99]')).usage).toMatchObject({ inputTokens: 10, cacheWriteTokens: 10 });
  });

  it('never reports zero input tokens', () => {
    expect(planReply(conversation({ inputCharacters: 0, userText: '' }), parseDirectives('')).usage.inputTokens).toBe(1);
  });

  it('truncates long echoes to 200 characters', () => {
    const long = 'x'.repeat(500);
    const reply = planReply(conversation({ userText: long }), parseDirectives(long));
    expect(reply.text?.text).toBe(`You said: ${'x'.repeat(200)}`);
  });

  it('answers a tool result with text even when the user asked for a tool', () => {
    const reply = planReply(conversation({ userText: '[tool]', toolResult: 'r'.repeat(300) }), parseDirectives('[tool]'));
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text?.text).toBe(`Tool result: ${'r'.repeat(200)}`);
    expect(reply.finish).toBe('stop');
  });

  it('counts tool-call fragments as output tokens', () => {
    const reply = planReply(conversation({ userText: '[tools:2]' }), parseDirectives('[tools:2]'));
    expect(reply.finish).toBe('tool_calls');
    expect(reply.toolCalls.map((call) => call.argumentsJson)).toEqual(['{"query":"sim"}', '{"query":"sim"}']);
    const fragments = reply.toolCalls.flatMap((call) => call.fragments).filter((fragment) => fragment !== '');
    expect(reply.usage.outputTokens).toBe(fragments.length);
  });

  it('cuts the answer at maxOutputTokens and reports length', () => {
    const reply = planReply(conversation({ userText: 'a b c d e', maxOutputTokens: 3 }), parseDirectives(''));
    expect(reply.text?.text).toBe('You said: a');
    expect(reply.finish).toBe('length');
  });

  it('puts reasoning first with a stable signature', () => {
    const first = planReply(conversation({ reasoningRequested: true }), parseDirectives('hello'));
    const second = planReply(conversation({ reasoningRequested: true }), parseDirectives('hello'));
    expect(first.reasoning?.text).toBe('Thinking about: hello');
    expect(first.reasoning?.signature).toBe(second.reasoning?.signature);
    expect(first.usage.reasoningTokens).toBe(3);
    expect(first.usage.outputTokens).toBe(6);
  });
});

describe('splitIntoPieces', () => {
  it('keeps whitespace so the pieces join back to the text', () => {
    const text = '  lead  and\ntrail  ';
    const pieces = splitIntoPieces(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces).toHaveLength(3);
  });
});
