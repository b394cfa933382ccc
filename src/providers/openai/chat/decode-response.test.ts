import { describe, expect, it } from 'vitest';
import { decodeChatResponse } from './decode-response.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';

describe('decodeChatResponse on recorded bodies', () => {
  it('decodes the OpenAI text completion with its usage', () => {
    const response = decodeChatResponse(readJsonFixture('openai/chat/openai-text.json'));
    expect(response.id).toBe('chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU');
    expect(response.model).toBe('gpt-4.1-nano-2025-04-14');
    expect(response.created).toBe(1770933883);
    expect(response.content).toHaveLength(1);
    expect(response.content[0]?.type === 'text' && response.content[0].text.startsWith('**Holiday Name:** Galaxy Day')).toBe(true);
    expect(response.finish).toEqual({ reason: 'stop', raw: 'stop' });
    expect(response.usage).toEqual({ inputUncached: 16, cacheRead: 0, cacheWrite: 0, output: 363, reasoning: 0 });
  });

  it('decodes DeepSeek reasoning_content, a tool call and cache-hit usage', () => {
    const response = decodeChatResponse(readJsonFixture('openai-compatible/chat/deepseek-tool-call.json'));
    expect(response.content.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
    expect(response.content[1]).toEqual({ type: 'tool-call', id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo', name: 'weather', arguments: '{"location": "San Francisco"}' });
    expect(response.finish).toEqual({ reason: 'tool-calls', raw: 'tool_calls' });
    expect(response.usage).toEqual({ inputUncached: 19, cacheRead: 320, cacheWrite: 0, output: 44, reasoning: 48 });
  });

  it('decodes xAI usage whose completion_tokens exclude reasoning tokens', () => {
    const response = decodeChatResponse(readJsonFixture('openai-compatible/chat/xai-tool-call.json'));
    expect(response.content.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
    expect(response.usage).toEqual({ inputUncached: 63, cacheRead: 244, cacheWrite: 0, output: 26, reasoning: 255 });
  });

  it('decodes a Groq tool call whose message has no content field', () => {
    const response = decodeChatResponse(readJsonFixture('openai-compatible/chat/groq-tool-call.json'));
    expect(response.content).toEqual([{ type: 'tool-call', id: 'ax9fskhev', name: 'weather', arguments: '{}' }]);
    expect(response.usage).toEqual({ inputUncached: 218, cacheRead: 0, cacheWrite: 0, output: 15, reasoning: 0 });
  });

  it('maps a refusal to text with finish reason refusal', () => {
    const response = decodeChatResponse({ id: 'x', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'No.' }, finish_reason: 'stop' }] });
    expect(response.content).toEqual([{ type: 'text', text: 'No.' }]);
    expect(response.finish).toEqual({ reason: 'refusal', raw: 'stop' });
  });

  it('accepts tool arguments sent as an object by some compat servers', () => {
    const response = decodeChatResponse({ choices: [{ index: 0, message: { tool_calls: [{ id: 'c', function: { name: 'f', arguments: { a: 1 } } }] }, finish_reason: 'tool_calls' }] });
    expect(response.content).toEqual([{ type: 'tool-call', id: 'c', name: 'f', arguments: '{"a":1}' }]);
  });

  it('rejects a body without choices as an invalid upstream response', () => {
    expect(() => decodeChatResponse({ object: 'chat.completion' })).toThrow(expect.objectContaining({ code: 'upstream_invalid_response' }));
  });
});
