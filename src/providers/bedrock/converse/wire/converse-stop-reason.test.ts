import { describe, expect, it } from 'vitest';
import { finishFromConverseStopReason } from './converse-stop-reason.js';

describe('Converse stopReason → neutral finish', () => {
  it.each([
    ['end_turn', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop-sequence'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['model_context_window_exceeded', 'context-window'],
    ['malformed_model_output', 'error'],
    ['malformed_tool_use', 'error'],
    ['a_reason_added_later', 'other'],
  ])('%s → %s, the raw value kept', (raw, reason) => {
    expect(finishFromConverseStopReason(raw)).toEqual({ reason, raw });
  });

  it('says other when no stop reason came', () => {
    expect(finishFromConverseStopReason(undefined)).toEqual({ reason: 'other' });
  });
});
