import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { openAIErrorBody } from '../../wire/chat/openai-error-body.js';
import { responsesFormat } from './index.js';

describe('Responses error encoding', () => {
  it('uses the OpenAI error body, the same as chat', () => {
    const error = new GatewayError('invalid_field', "Invalid value for 'input[3].call_id'.", { param: 'input[3].call_id' });
    expect(responsesFormat.encodeError(error, 'req_1')).toEqual({
      status: 400,
      body: { error: { message: error.message, type: 'invalid_request_error', param: 'input[3].call_id', code: 'invalid_field', request_id: 'req_1' } },
    });
    expect(responsesFormat.encodeError(error, 'req_1').body).toEqual(openAIErrorBody(error, 'req_1'));
  });

  it('writes an in-stream error as an error event and a terminal response.failed Codex can classify', () => {
    const text = responsesFormat.encodeStreamError(new GatewayError('upstream_rate_limited', 'quota', { upstreamType: 'insufficient_quota' }), 'req_2');
    const events = text
      .split('\n\n')
      .filter((frame) => frame !== '')
      .map((frame) => {
        const [eventLine, dataLine] = frame.split('\n');
        return [eventLine, JSON.parse(dataLine?.slice('data: '.length) ?? '{}')] as const;
      });
    expect(events.map(([eventLine]) => eventLine)).toEqual(['event: error', 'event: response.failed']);
    expect(events[0]?.[1]).toEqual({
      type: 'error',
      code: 'insufficient_quota',
      message: 'quota',
      param: null,
      error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'quota', param: null },
    });
    expect(events[1]?.[1]).toMatchObject({ type: 'response.failed', response: { id: 'resp_req_2', status: 'failed', error: { code: 'insufficient_quota', message: 'quota' } } });
  });
});
