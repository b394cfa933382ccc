import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBedrockError, streamExceptionError } from './bedrock-error.js';

function fixture(name: string): string {
  return readFileSync(new URL(`../../../test/fixtures/bedrock/${name}`, import.meta.url), 'utf8');
}

const typed = (type: string): Record<string, string> => ({ 'x-amzn-ErrorType': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });

describe('Bedrock error answers', () => {
  it('keeps throttling a retryable 429, so the next route is tried', () => {
    const error = decodeBedrockError(429, fixture('throttling-error.json'), typed('ThrottlingException'));
    expect(error).toMatchObject({ code: 'upstream_rate_limited', status: 429, retryable: true, upstreamType: 'rate_limit_error' });
    expect(error.message).toContain('Too many requests, please wait before trying again.');
    expect(error.message).toContain('ThrottlingException');
  });

  it("reads a recorded validation error's message as the client's fault", () => {
    const error = decodeBedrockError(400, fixture('amazon-bedrock-validation-error-no-type.json'), typed('ValidationException'));
    expect(error).toMatchObject({ code: 'upstream_client_error', status: 400, retryable: false, upstreamType: 'invalid_request_error' });
    expect(error.message).toContain("This model doesn't support the image field for user messages.");
  });

  it('maps an unavailable service to a retryable 503, a model not ready to 429 and a refused credential to 502', () => {
    expect(decodeBedrockError(503, '{"message":"Service unavailable"}', typed('ServiceUnavailableException'))).toMatchObject({ status: 503, retryable: true });
    expect(decodeBedrockError(429, '{"message":"Model is not ready"}', typed('ModelNotReadyException'))).toMatchObject({ status: 429, retryable: true });
    expect(decodeBedrockError(403, '{"Message":"User is not authorized"}', typed('AccessDeniedException'))).toMatchObject({ status: 502, upstreamStatus: 403 });
    expect(decodeBedrockError(408, '{"message":"Model timed out"}', typed('ModelTimeoutException'))).toMatchObject({ code: 'upstream_timeout' });
  });

  it('keeps the status class of an answer that is not JSON', () => {
    expect(decodeBedrockError(502, '<html>Bad gateway</html>', {})).toMatchObject({ status: 502, message: 'The upstream model provider returned HTTP 502.' });
  });

  it("maps a stream exception by its type, or by the model's own status when it carries one", () => {
    expect(streamExceptionError('throttlingException', '{"message":"slow down"}')).toMatchObject({ status: 429, retryable: true });
    expect(streamExceptionError('modelStreamErrorException', '{"message":"Model Stream Error","originalStatusCode":500}')).toMatchObject({ status: 502 });
    expect(streamExceptionError('validationException', '{"message":"bad"}')).toMatchObject({ status: 400 });
  });
});
