import type { FinishInfo, FinishReason } from '../../ir/index.js';
import type { MessagesStopReason } from './messages-types.js';

const finishByStopReason: Readonly<Record<MessagesStopReason, FinishReason>> = {
  end_turn: 'stop',
  max_tokens: 'length',
  stop_sequence: 'stop-sequence',
  tool_use: 'tool-calls',
  pause_turn: 'pause',
  refusal: 'refusal',
  model_context_window_exceeded: 'context-window',
};

const stopReasonByFinish: Readonly<Record<FinishReason, MessagesStopReason>> = {
  stop: 'end_turn',
  'stop-sequence': 'stop_sequence',
  length: 'max_tokens',
  'context-window': 'model_context_window_exceeded',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  refusal: 'refusal',
  pause: 'pause_turn',
  // Messages has no failure stop reason (failures are errors); a finished answer ends its turn.
  error: 'end_turn',
  other: 'end_turn',
};

export function isMessagesStopReason(value: string): value is MessagesStopReason {
  return Object.hasOwn(finishByStopReason, value);
}

/** A Messages `stop_reason` (+ `stop_sequence`) → IR finish, keeping the raw value. */
export function finishFromStopReason(stopReason: string | null | undefined, stopSequence?: string | null): FinishInfo {
  if (stopReason === null || stopReason === undefined) return { reason: 'other' };
  const reason = isMessagesStopReason(stopReason) ? finishByStopReason[stopReason] : 'other';
  return {
    reason,
    raw: stopReason,
    ...(typeof stopSequence === 'string' ? { stopSequence } : {}),
  };
}

/**
 * IR finish → Messages `stop_reason`. The raw value is reused when it is a Messages value (the
 * answer came from an Anthropic upstream), so such clients see exactly what the model said.
 */
export function stopReasonFromFinish(finish: FinishInfo): MessagesStopReason {
  if (finish.raw !== undefined && isMessagesStopReason(finish.raw)) return finish.raw;
  return stopReasonByFinish[finish.reason];
}
