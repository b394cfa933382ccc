import { describe, expect, it } from 'vitest';
import { chatFinishReason, finishFromChat } from './chat-finish-reason.js';

describe('chat finish reasons', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['content_filter', 'content-filter'],
    ['insufficient_system_resource', 'error'],
    ['something_new', 'other'],
  ])('reads %s as %s and keeps the raw value', (raw, reason) => {
    expect(finishFromChat(raw, false)).toEqual({ reason, raw });
  });

  it('infers tool-calls when the upstream gave no finish reason but called tools', () => {
    expect(finishFromChat(null, true)).toEqual({ reason: 'tool-calls' });
    expect(finishFromChat(undefined, false)).toEqual({ reason: 'stop' });
  });

  it.each([
    [{ reason: 'stop-sequence', raw: 'stop_sequence' }, 'stop'],
    [{ reason: 'context-window', raw: 'model_context_window_exceeded' }, 'length'],
    [{ reason: 'refusal', raw: 'refusal' }, 'content_filter'],
    [{ reason: 'length', raw: 'MAX_TOKENS' }, 'length'],
    [{ reason: 'tool-calls', raw: 'function_call' }, 'function_call'],
  ] as const)('writes %o as %s', (finish, expected) => {
    expect(chatFinishReason(finish, false)).toBe(expected);
  });
});
