import type { FinishInfo, FinishReason } from '../../../../ir/index.js';

/**
 * Converse `stopReason` (the `StopReason` enum of the Bedrock Runtime API reference) → neutral
 * reason. A guardrail stepping in and the model's own content filter both withhold the answer;
 * output the model could not form (`malformed_*`) is unusable, so it is an error, not a stop.
 */
const reasons: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'length',
  stop_sequence: 'stop-sequence',
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
  model_context_window_exceeded: 'context-window',
  malformed_model_output: 'error',
  malformed_tool_use: 'error',
};

/** The neutral finish; `stopSequence` is the sequence that matched, when the model reported it. */
export function finishFromConverseStopReason(raw: string | undefined, stopSequence?: string): FinishInfo {
  if (raw === undefined) return { reason: 'other' };
  // Values newer than this table are kept raw for clients of the same family.
  const reason = reasons[raw] ?? 'other';
  return { reason, raw, ...(stopSequence === undefined ? {} : { stopSequence }) };
}
