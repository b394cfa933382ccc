import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../errors/gateway-error.js';
import { isRecord } from '../../../json/json-value.js';
import { decodeOpenAIError } from '../shared/decode-error.js';
import { decodeImagesResponse } from './decode-images-response.js';
import { readFixture, readJsonFixture } from '../../../../test/support/fixtures.js';

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('OpenAI images: decoding the answer', () => {
  it('reads both recorded images and the revised prompt of the first (b64 kept as recorded)', () => {
    const result = decodeImagesResponse(readJsonFixture('openai/images/openai-image.json'));
    expect(result.images).toHaveLength(2);
    expect(result.images[0]?.base64).toMatch(/^iVBORw0KGgo/);
    expect(result.images[0]?.revisedPrompt).toMatch(/^A small and adorable baby sea otter/);
    expect(result.images[1]).not.toHaveProperty('revisedPrompt');
    expect(result).not.toHaveProperty('usage');
    expect(result).not.toHaveProperty('size');
  });

  it('reads the size, quality, format and background a gpt-image edit reports', () => {
    const result = decodeImagesResponse(readJsonFixture('openai/images/openai-image-edit.json'));
    expect(result).toMatchObject({ size: '1024x1024', quality: 'high', outputFormat: 'png', background: 'opaque' });
    expect(result.images).toHaveLength(1);
  });

  it('turns the documented usage into disjoint buckets (text and image input are both input)', () => {
    const result = decodeImagesResponse(readJsonFixture('openai/images/spec-example.gpt-image.response.json'));
    expect(result.images[0]?.base64).toBe('...');
    expect(result.usage).toEqual({ inputUncached: 50, cacheRead: 0, cacheWrite: 0, output: 50, reasoning: 0 });
  });

  it('reads the observed gpt-image-1 usage once its blanked image is filled in', () => {
    const recorded = readJsonFixture('openai/images/observed-omnimaas-docs.gpt-image-1.usage.json');
    if (!isRecord(recorded)) throw new Error('fixture is not an object');
    // The author blanked `b64_json`; an opaque stand-in keeps the rest of the body as observed.
    const result = decodeImagesResponse({ ...recorded, data: [{ b64_json: 'AAAA' }] });
    expect(result.usage).toEqual({ inputUncached: 52, cacheRead: 0, cacheWrite: 0, output: 4160, reasoning: 0 });
    expect(result).toMatchObject({ size: '1024x1024', quality: 'high', outputFormat: 'png', background: 'opaque' });
  });

  it('counts cached input tokens as cache reads where an upstream reports them', () => {
    const result = decodeImagesResponse({
      data: [{ b64_json: 'AAAA' }],
      usage: { input_tokens: 100, input_tokens_details: { text_tokens: 40, image_tokens: 60, cached_tokens: 30 }, output_tokens: 272 },
    });
    expect(result.usage).toEqual({ inputUncached: 70, cacheRead: 30, cacheWrite: 0, output: 272, reasoning: 0 });
  });

  it('refuses URL answers with upstream_invalid_response rather than returning no images', () => {
    const error = thrownBy(() => decodeImagesResponse(readJsonFixture('openai/images/openllmetry.dall-e-2.url.json')));
    expect(isGatewayError(error) && error.code).toBe('upstream_invalid_response');
  });

  it('makes an answer whose images were all withheld a 400, never an empty success', () => {
    for (const body of [{ data: [] }, readJsonFixture('openai/images/observed-omnimaas-docs.gpt-image-1.usage.json')]) {
      const error = thrownBy(() => decodeImagesResponse(body));
      expect(isGatewayError(error) && { code: error.code, status: error.status }).toEqual({ code: 'upstream_client_error', status: 400 });
    }
  });

  it('refuses a body without data', () => {
    const error = thrownBy(() => decodeImagesResponse({ error: 'nope' }));
    expect(isGatewayError(error) && error.code).toBe('upstream_invalid_response');
  });
});

describe('OpenAI images: errors through the adapter error decoder', () => {
  it('keeps a safety refusal as a 400 with its message and the moderation_blocked code', () => {
    const body = JSON.stringify({
      error: {
        message: 'Your request was rejected by the safety system. If you believe this is an error, contact us.',
        type: 'image_generation_user_error',
        param: null,
        code: 'moderation_blocked',
      },
    });
    const error = decodeOpenAIError(400, body, {});
    expect(error).toMatchObject({ status: 400, code: 'upstream_client_error', upstreamType: 'moderation_blocked' });
    expect(error.message).toBe('Your request was rejected by the safety system. If you believe this is an error, contact us.');
  });

  it('keeps the dall-e content_policy_violation code too', () => {
    const body = '{"error":{"message":"Your request was rejected as a result of our safety system.","type":"invalid_request_error","param":null,"code":"content_policy_violation"}}';
    expect(decodeOpenAIError(400, body, {}).upstreamType).toBe('content_policy_violation');
  });

  it('keeps the recorded response_format refusal as a 400 naming the parameter', () => {
    const error = decodeOpenAIError(400, readFixture('openai/images/gpt-image-response-format-error.json'), {});
    expect(error).toMatchObject({ status: 400, message: "Unknown parameter: 'response_format'." });
  });
});
