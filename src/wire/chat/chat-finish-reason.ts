import type { FinishInfo, FinishReason } from '../../ir/index.js';
import type { ChatFinishReason } from './chat-wire-types.js';

const fromChat: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  content_filter: 'content-filter',
  // DeepSeek: the server ran out of capacity mid-answer.
  insufficient_system_resource: 'error',
  // Some compat servers (vLLM, llama.cpp) name the end-of-sequence stop this way.
  eos: 'stop',
  model_context_window_exceeded: 'context-window',
};

/** Chat's `finish_reason` in neutral terms; the original value is kept as `raw`. */
export function finishFromChat(raw: string | null | undefined, hasToolCalls: boolean): FinishInfo {
  if (raw === null || raw === undefined || raw === '') return { reason: hasToolCalls ? 'tool-calls' : 'stop' };
  return { reason: fromChat[raw] ?? 'other', raw };
}

const toChat: Readonly<Record<FinishReason, ChatFinishReason>> = {
  stop: 'stop',
  'stop-sequence': 'stop',
  length: 'length',
  'context-window': 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  refusal: 'content_filter',
  pause: 'stop',
  error: 'stop',
  other: 'stop',
};

const chatValues: ReadonlySet<string> = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

/**
 * The `finish_reason` to show a chat client. The upstream's own value is reused when it is a chat
 * value meaning the same thing (so `function_call` survives); a turn that produced tool calls
 * always says `tool_calls`, which chat tool loops key on (Gemini reports STOP for such turns).
 */
export function chatFinishReason(finish: FinishInfo, hasToolCalls: boolean): string {
  if (hasToolCalls && (finish.reason === 'stop' || finish.reason === 'tool-calls' || finish.reason === 'other')) {
    return finish.raw === 'function_call' ? 'function_call' : 'tool_calls';
  }
  const mapped = toChat[finish.reason];
  if (finish.raw !== undefined && chatValues.has(finish.raw) && fromChat[finish.raw] === finish.reason) return finish.raw;
  return mapped;
}
