import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamStatusError } from '../../errors/gateway-error.js';
import { encodeMessagesError, messagesFormat } from './index.js';
import { parseSse } from './messages-fixtures.test-support.js';

describe('Messages error shape', () => {
  it.each<[GatewayError, number, string]>([
    [new GatewayError('invalid_field', 'messages.0.role: bad', { param: 'messages.0.role' }), 400, 'invalid_request_error'],
    [new GatewayError('invalid_api_key', 'no'), 401, 'authentication_error'],
    [new GatewayError('budget_exhausted', 'spent'), 402, 'billing_error'],
    [new GatewayError('model_not_permitted', 'no'), 403, 'permission_error'],
    [new GatewayError('model_not_found', 'none'), 404, 'not_found_error'],
    [new GatewayError('method_not_allowed', 'no'), 405, 'invalid_request_error'],
    [new GatewayError('body_too_large', 'big'), 413, 'request_too_large'],
    [new GatewayError('unsupported_combination', 'no'), 422, 'invalid_request_error'],
    [new GatewayError('rate_limited', 'slow'), 429, 'rate_limit_error'],
    [new GatewayError('internal_error', 'oops'), 500, 'api_error'],
    [new GatewayError('upstream_error', 'bad gateway'), 502, 'api_error'],
    [new GatewayError('upstream_unavailable', 'busy'), 503, 'overloaded_error'],
    [new GatewayError('no_route', 'none'), 503, 'overloaded_error'],
    [new GatewayError('upstream_timeout', 'slow'), 504, 'timeout_error'],
  ])('%s → %i %s', (error, status, type) => {
    expect(encodeMessagesError(error, 'req_42')).toEqual({
      status,
      body: { type: 'error', error: { type, message: error.message }, request_id: 'req_42' },
    });
  });

  it("keeps an Anthropic upstream's own error type when it fits the status", () => {
    const overloaded = upstreamStatusError(529, 'Upstream error: Overloaded', { upstreamType: 'overloaded_error' });
    expect(encodeMessagesError(overloaded, 'r')).toMatchObject({ status: 503, body: { error: { type: 'overloaded_error' } } });
    const tooLarge = upstreamStatusError(413, 'too large', { upstreamType: 'request_too_large' });
    expect(encodeMessagesError(tooLarge, 'r')).toMatchObject({ status: 413, body: { error: { type: 'request_too_large' } } });
    const apiError = new GatewayError('upstream_unavailable', 'x', { upstreamType: 'api_error' });
    expect(encodeMessagesError(apiError, 'r')).toMatchObject({ status: 503, body: { error: { type: 'api_error' } } });
  });

  it("does not call the gateway's refused upstream credential an authentication error of the client", () => {
    const refused = upstreamStatusError(401, 'Upstream error: invalid x-api-key', { upstreamType: 'authentication_error' });
    expect(encodeMessagesError(refused, 'r')).toMatchObject({ status: 502, body: { error: { type: 'api_error' } } });
  });

  it('ignores upstream error types of other formats', () => {
    const quota = upstreamStatusError(429, 'quota', { upstreamType: 'insufficient_quota' });
    expect(encodeMessagesError(quota, 'r')).toMatchObject({ status: 429, body: { error: { type: 'rate_limit_error' } } });
  });

  it('sends an in-stream error as a named error event', () => {
    const error = new GatewayError('upstream_unavailable', 'Overloaded', { upstreamType: 'overloaded_error' });
    const text = messagesFormat.encodeStreamError(error, 'req_9');
    expect(text).toBe('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_9"}\n\n');
    expect(parseSse(text)).toHaveLength(1);
    expect(messagesFormat.encodeError(error, 'req_9')).toEqual(encodeMessagesError(error, 'req_9'));
  });
});
