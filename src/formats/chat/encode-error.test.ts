import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { chatFormat, encodeOpenAIError } from './index.js';

describe('OpenAI error shape', () => {
  it.each<[GatewayError, number, string, string]>([
    [new GatewayError('invalid_field', 'bad', { param: 'messages[0].content' }), 400, 'invalid_request_error', 'invalid_field'],
    [new GatewayError('invalid_api_key', 'no'), 401, 'authentication_error', 'invalid_api_key'],
    [new GatewayError('authentication_required', 'no'), 401, 'authentication_error', 'invalid_api_key'],
    [new GatewayError('budget_exhausted', 'spent'), 402, 'insufficient_quota', 'budget_exhausted'],
    [new GatewayError('model_not_permitted', 'no'), 403, 'permission_error', 'model_not_permitted'],
    [new GatewayError('model_not_found', 'none'), 404, 'invalid_request_error', 'model_not_found'],
    [new GatewayError('not_found', 'none'), 404, 'invalid_request_error', 'not_found'],
    [new GatewayError('rate_limited', 'slow'), 429, 'rate_limit_exceeded', 'rate_limit_exceeded'],
    [new GatewayError('upstream_rate_limited', 'quota', { upstreamType: 'insufficient_quota' }), 429, 'insufficient_quota', 'insufficient_quota'],
    [new GatewayError('internal_error', 'oops'), 500, 'server_error', 'internal_error'],
    [new GatewayError('upstream_error', 'bad gateway'), 502, 'api_error', 'upstream_error'],
    [new GatewayError('upstream_timeout', 'slow'), 504, 'api_error', 'upstream_timeout'],
  ])('%s → %i %s', (error, status, type, code) => {
    const encoded = encodeOpenAIError(error, 'req_42');
    expect(encoded.status).toBe(status);
    expect(encoded.body).toEqual({ error: { message: error.message, type, param: error.param ?? null, code, request_id: 'req_42' } });
  });

  it('is what the chat format uses, also inside a stream', () => {
    const error = new GatewayError('invalid_field', 'bad', { param: 'model' });
    expect(chatFormat.encodeError(error, 'r')).toEqual(encodeOpenAIError(error, 'r'));
    expect(chatFormat.encodeStreamError(error, 'r')).toBe(`data: ${JSON.stringify(encodeOpenAIError(error, 'r').body)}\n\n`);
  });
});
