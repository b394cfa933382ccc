import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/support/fixtures.js';
import { decodeConverseError } from './index.js';

const namespace = ':http://internal.amazon.com/coral/com.amazon.bedrock/';

describe('Converse error answer → GatewayError', () => {
  it('keeps a validation error a non-retryable 400 with the upstream message (recorded body)', () => {
    const error = decodeConverseError(400, readFixture('bedrock/converse/amazon-bedrock-validation-error-no-type.json'), { 'x-amzn-ErrorType': `ValidationException${namespace}` });
    expect(error).toMatchObject({ code: 'upstream_client_error', status: 400, retryable: false, upstreamType: 'ValidationException', upstreamStatus: 400 });
    expect(error.message).toBe('Upstream error: This model doesn\'t support the image field for user messages. Remove image and try again.');
  });

  it('makes throttling a retryable 429 that keeps retry-after', () => {
    const error = decodeConverseError(429, '{"message":"Too many requests, please wait before trying again."}', { 'x-amzn-errortype': 'ThrottlingException', 'retry-after': '3' });
    expect(error).toMatchObject({ code: 'upstream_rate_limited', status: 429, retryable: true, upstreamType: 'ThrottlingException', retryAfterSeconds: 3 });
  });

  it('makes an unavailable service a retryable 503', () => {
    expect(decodeConverseError(503, '{"message":"Bedrock is unable to process your request."}', { 'x-amzn-ErrorType': 'ServiceUnavailableException' }))
      .toMatchObject({ code: 'upstream_unavailable', status: 503, retryable: true });
  });

  it('treats a refused credential as the gateway\'s own failure, not the client\'s', () => {
    expect(decodeConverseError(403, '{"Message":"User is not authorized to perform: bedrock:InvokeModel"}', { 'x-amzn-ErrorType': 'AccessDeniedException' }))
      .toMatchObject({ code: 'upstream_error', status: 502, upstreamStatus: 403, upstreamType: 'AccessDeniedException' });
  });

  it('treats a model failing while answering (424) as a retryable upstream error, and a model time-out as a time-out', () => {
    expect(decodeConverseError(424, '{"message":"Model returned an error"}', { 'x-amzn-ErrorType': 'ModelErrorException' }))
      .toMatchObject({ code: 'upstream_error', status: 502, retryable: true, upstreamStatus: 424, upstreamType: 'ModelErrorException' });
    expect(decodeConverseError(408, '{"message":"Model timed out"}', { 'x-amzn-ErrorType': 'ModelTimeoutException' }))
      .toMatchObject({ code: 'upstream_timeout', status: 504, retryable: true });
  });

  it('reads the type from the body when the header is missing, and says the status when there is no message', () => {
    const error = decodeConverseError(404, '{"__type":"com.amazon.bedrock#ResourceNotFoundException"}', {});
    expect(error).toMatchObject({ code: 'upstream_client_error', status: 404, upstreamType: 'ResourceNotFoundException' });
    expect(error.message).toBe('The upstream model provider returned HTTP 404.');
  });
});
