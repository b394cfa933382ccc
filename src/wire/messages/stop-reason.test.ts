import { describe, expect, it } from 'vitest';
import type { FinishReason } from '../../ir/index.js';
import { finishFromStopReason, stopReasonFromFinish } from './stop-reason.js';

const pairs: readonly [string, FinishReason][] = [
  ['end_turn', 'stop'],
  ['max_tokens', 'length'],
  ['stop_sequence', 'stop-sequence'],
  ['tool_use', 'tool-calls'],
  ['pause_turn', 'pause'],
  ['refusal', 'refusal'],
  ['model_context_window_exceeded', 'context-window'],
];

describe('stop_reason mapping', () => {
  it.each(pairs)('maps %s to %s and keeps the raw value', (stopReason, reason) => {
    expect(finishFromStopReason(stopReason)).toEqual({ reason, raw: stopReason });
  });

  it.each(pairs)('maps %s back from %s', (stopReason, reason) => {
    expect(stopReasonFromFinish({ reason })).toBe(stopReason);
  });

  it('keeps the matched stop sequence', () => {
    expect(finishFromStopReason('stop_sequence', 'END')).toEqual({ reason: 'stop-sequence', raw: 'stop_sequence', stopSequence: 'END' });
  });

  it('maps an unknown stop reason to other but keeps it raw', () => {
    expect(finishFromStopReason('brand_new_reason')).toEqual({ reason: 'other', raw: 'brand_new_reason' });
  });

  it('prefers a raw Messages value over the neutral reason', () => {
    expect(stopReasonFromFinish({ reason: 'length', raw: 'model_context_window_exceeded' })).toBe('model_context_window_exceeded');
  });

  it('ignores raw values of other formats', () => {
    expect(stopReasonFromFinish({ reason: 'content-filter', raw: 'content_filter' })).toBe('refusal');
    expect(stopReasonFromFinish({ reason: 'stop', raw: 'STOP' })).toBe('end_turn');
  });
});
