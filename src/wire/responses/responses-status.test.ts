import { describe, expect, it } from 'vitest';
import { finishFromResponses, responsesOutcome } from './responses-status.js';

describe('Responses status and finish', () => {
  it.each([
    [{ status: 'completed', hasToolCalls: false }, { reason: 'stop', raw: 'completed' }],
    [{ status: 'completed', hasToolCalls: true }, { reason: 'tool-calls', raw: 'completed' }],
    [{ status: 'completed', hasToolCalls: false, refused: true }, { reason: 'refusal', raw: 'completed' }],
    [{ status: 'incomplete', incompleteReason: 'max_output_tokens', hasToolCalls: false }, { reason: 'length', raw: 'max_output_tokens' }],
    [{ status: 'incomplete', incompleteReason: 'content_filter', hasToolCalls: false }, { reason: 'content-filter', raw: 'content_filter' }],
    [{ status: 'incomplete', hasToolCalls: false }, { reason: 'other', raw: 'incomplete' }],
    [{ status: 'failed', hasToolCalls: false }, { reason: 'error', raw: 'failed' }],
    [{ status: 'cancelled', hasToolCalls: false }, { reason: 'other', raw: 'cancelled' }],
  ] as const)('reads %o as %o', (facts, finish) => {
    expect(finishFromResponses(facts)).toEqual(finish);
  });

  it.each([
    ['stop', 'completed', null],
    ['tool-calls', 'completed', null],
    ['refusal', 'completed', null],
    ['length', 'incomplete', { reason: 'max_output_tokens' }],
    ['context-window', 'incomplete', { reason: 'max_output_tokens' }],
    ['content-filter', 'incomplete', { reason: 'content_filter' }],
  ] as const)('writes %s as %s', (reason, status, details) => {
    expect(responsesOutcome({ reason })).toEqual({ status, incompleteDetails: details, error: null });
  });

  it('writes an error finish as failed with a server_error code', () => {
    expect(responsesOutcome({ reason: 'error' })).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });
});
