import { describe, expect, it } from 'vitest';
import type { IrResponse } from '../../ir/index.js';
import { chatFormat } from './index.js';

const context = {
  requestId: 'req_1',
  model: 'public-model',
  request: chatFormat.decodeRequest({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }] }),
};

describe('chat encodeResponse', () => {
  it('writes the chat.completion object with reasoning, tool calls and usage details', () => {
    const response: IrResponse = {
      id: 'msg_01',
      model: 'claude-upstream',
      created: 1700000000,
      content: [
        { type: 'reasoning', text: 'thinking', blob: { provider: 'anthropic', value: 'sig' } },
        { type: 'text', text: 'Checking ' },
        { type: 'text', text: 'now.' },
        { type: 'tool-call', id: 'toolu_1', name: 'weather', arguments: '' },
        { type: 'tool-call', id: 'toolu_2', name: 'patch', arguments: '*** Begin Patch', kind: 'custom' },
      ],
      finish: { reason: 'tool-calls', raw: 'tool_use' },
      usage: { inputUncached: 4, cacheRead: 6, cacheWrite: 2, output: 5, reasoning: 3 },
    };
    expect(chatFormat.encodeResponse(response, context)).toEqual({
      id: 'chatcmpl-msg_01',
      object: 'chat.completion',
      created: 1700000000,
      model: 'public-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking now.',
            refusal: null,
            reasoning_content: 'thinking',
            tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{}' } },
              { id: 'toolu_2', type: 'custom', custom: { name: 'patch', input: '*** Begin Patch' } },
            ],
            annotations: [],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 8,
        total_tokens: 20,
        prompt_tokens_details: { cached_tokens: 6, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 3, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
  });

  it('gives null content for a tool-only answer and keeps an upstream chatcmpl id as is', () => {
    const body = chatFormat.encodeResponse(
      {
        id: 'chatcmpl-xyz',
        model: 'm',
        created: 1,
        content: [{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }],
        finish: { reason: 'stop', raw: 'STOP' },
        usage: { inputUncached: 1, cacheRead: 0, cacheWrite: 0, output: 1, reasoning: 0 },
      },
      context,
    ) as { id: string; choices: { message: { content: unknown }; finish_reason: string }[] };
    expect(body.id).toBe('chatcmpl-xyz');
    expect(body.choices[0]?.message.content).toBeNull();
    // Chat tool loops key on tool_calls even when the upstream (Gemini) said STOP.
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
  });
});
