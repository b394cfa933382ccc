import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { openAIErrorBody } from './openai-error-body.js';

describe('openAIErrorBody', () => {
  it("shows an upstream content refusal's own code, keeping its message and status class", () => {
    const refusal = new GatewayError('upstream_client_error', 'Your request was rejected by the safety system.', { status: 400, upstreamType: 'moderation_blocked' });
    expect(openAIErrorBody(refusal, 'req_1').error).toMatchObject({ type: 'invalid_request_error', code: 'moderation_blocked', message: 'Your request was rejected by the safety system.' });
    const filtered = new GatewayError('upstream_client_error', 'Gemini returned no image (IMAGE_SAFETY)', { status: 400, upstreamType: 'IMAGE_SAFETY' });
    expect(openAIErrorBody(filtered, 'req_2').error.code).toBe('IMAGE_SAFETY');
  });

  it("keeps the gateway's code for other upstream client errors", () => {
    const invalid = new GatewayError('upstream_client_error', 'bad', { status: 400, upstreamType: 'invalid_request_error' });
    expect(openAIErrorBody(invalid, 'req_3').error.code).toBe('upstream_client_error');
    const gemini = new GatewayError('upstream_client_error', 'bad', { status: 400, upstreamType: 'INVALID_ARGUMENT' });
    expect(openAIErrorBody(gemini, 'req_4').error.code).toBe('upstream_client_error');
  });
});
