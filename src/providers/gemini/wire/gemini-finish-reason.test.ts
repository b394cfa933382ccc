import { describe, expect, it } from 'vitest';
import { finishFromBlockReason, finishFromGemini } from './gemini-finish-reason.js';

describe('finishFromGemini', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool-calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content-filter'],
    ['RECITATION', false, 'content-filter'],
    ['BLOCKLIST', false, 'content-filter'],
    ['PROHIBITED_CONTENT', false, 'content-filter'],
    ['SPII', false, 'content-filter'],
    ['IMAGE_SAFETY', false, 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['OTHER', false, 'other'],
    ['SOMETHING_NEW', false, 'other'],
  ])('maps %s (calls: %s) to %s and keeps the raw value', (raw, hasToolCalls, reason) => {
    expect(finishFromGemini(raw, hasToolCalls)).toEqual({ reason, raw });
  });

  it('reports a blocked prompt as content-filter', () => {
    expect(finishFromBlockReason('SAFETY')).toEqual({ reason: 'content-filter', raw: 'SAFETY' });
  });
});
