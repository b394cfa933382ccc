import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { gatewayErrorFromResponses, parseResponsesError, responsesErrorObject } from './responses-error.js';
import { fixtureChunks } from '../../../test/support/fixtures.js';

describe('Responses errors', () => {
  it('reads the nested error event of the recorded stream', () => {
    const event = fixtureChunks('openai/responses/openai-error.1.chunks.txt').map((line) => JSON.parse(line)).find((entry) => entry.type === 'error');
    expect(parseResponsesError(event)).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota', message: expect.stringMatching(/^You exceeded/) });
  });

  it('reads the flat error event of the published schema without taking "error" for a type', () => {
    expect(parseResponsesError({ type: 'error', code: 'server_error', message: 'boom', param: null, sequence_number: 3 })).toEqual({ code: 'server_error', message: 'boom' });
    expect(parseResponsesError({ type: 'error' })).toBeUndefined();
  });

  it.each([
    [{ message: 'q', code: 'insufficient_quota' }, 'upstream_rate_limited', 429],
    [{ message: 'r', code: 'rate_limit_exceeded' }, 'upstream_rate_limited', 429],
    [{ message: 'c', code: 'context_length_exceeded' }, 'upstream_client_error', 400],
    [{ message: 'i', type: 'invalid_request_error' }, 'upstream_client_error', 400],
    [{ message: 's', code: 'server_error' }, 'upstream_error', 502],
  ] as const)('maps %o to %s', (fields, code, status) => {
    expect(gatewayErrorFromResponses(fields)).toMatchObject({ code, status, message: fields.message });
  });

  it('names failures with codes Codex acts on', () => {
    expect(responsesErrorObject(new GatewayError('upstream_client_error', 'long', { upstreamType: 'context_length_exceeded' }))).toEqual({ code: 'context_length_exceeded', message: 'long' });
    expect(responsesErrorObject(new GatewayError('rate_limited', 'slow'))).toEqual({ code: 'rate_limit_exceeded', message: 'slow' });
    expect(responsesErrorObject(new GatewayError('upstream_timeout', 'late'))).toEqual({ code: 'server_error', message: 'late' });
    expect(responsesErrorObject(new GatewayError('budget_exhausted', 'spent'))).toEqual({ code: 'budget_exhausted', message: 'spent' });
  });
});
