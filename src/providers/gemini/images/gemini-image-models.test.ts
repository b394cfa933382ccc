import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../errors/gateway-error.js';
import { decodeGeminiError } from '../decode-error.js';
import { geminiImageGeneration } from './gemini-image-generation.js';
import { geminiTarget, imageRequest, jsonBody, thrownBy } from './gemini-images.test-support.js';
import { readFixture, readJsonFixture } from '../../../../test/support/fixtures.js';

const target = geminiTarget('gemini-2.5-flash-image');
const photo = { bytes: new Uint8Array([0xff, 0xd8, 0xff]), mediaType: 'image/jpeg', filename: 'photo.jpg' };

function errorFields(error: unknown) {
  return isGatewayError(error) ? { code: error.code, status: error.status, upstreamType: error.upstreamType, message: error.message } : error;
}

describe('Gemini image-output models through :generateContent', () => {
  it('asks for images only, with the aspect ratio of the requested size', () => {
    const built = geminiImageGeneration.buildRequest(imageRequest({ size: '1344x768' }), target);
    expect(built.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(jsonBody(built.body)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A red circle on white' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9' } },
    });
  });

  it('edits by sending the pictures as inlineData after the prompt', () => {
    const built = geminiImageGeneration.buildRequest(imageRequest({ inputImages: [photo] }), target);
    expect(jsonBody(built.body)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A red circle on white' }, { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } }] }],
      generationConfig: { responseModalities: ['IMAGE'] },
    });
  });

  it('refuses a mask, which Gemini has no input for', () => {
    const error = thrownBy(() => geminiImageGeneration.buildRequest(imageRequest({ inputImages: [photo], mask: photo }), target));
    expect(isGatewayError(error) && error.param).toBe('mask');
  });

  it('reads the recorded image and usage of gemini-2.5-flash-image, ignoring its text', () => {
    const result = geminiImageGeneration.decodeResponse(readJsonFixture('google/images/pydantic-ai.gemini-2.5-flash-image.text-and-image.json'), imageRequest());
    expect(result.images).toHaveLength(1);
    expect(result.images[0]?.base64).toMatch(/^iVBORw0KGgo/);
    expect(result).toMatchObject({ size: '1024x1024', quality: 'standard', outputFormat: 'png' });
    expect(result.usage).toEqual({ inputUncached: 17, cacheRead: 0, cacheWrite: 0, output: 1336, reasoning: 0 });
  });

  it('reads a Gemini 3 JPEG with thought tokens as reasoning', () => {
    const result = geminiImageGeneration.decodeResponse(readJsonFixture('google/images/pydantic-ai.gemini-3-pro-image-preview.text-and-image.json'), imageRequest({ size: '1184x864' }));
    expect(result).toMatchObject({ size: '1184x864', outputFormat: 'jpeg' });
    expect(result.usage).toEqual({ inputUncached: 14, cacheRead: 0, cacheWrite: 0, output: 1283, reasoning: 174 });
  });

  it('reads the image-only and the Vertex recordings', () => {
    const imageOnly = geminiImageGeneration.decodeResponse(readJsonFixture('google/images/pydantic-ai.gemini-3-pro-image.image-only.json'), imageRequest());
    expect(imageOnly.images[0]?.base64).toMatch(/^\/9j\//);
    expect(imageOnly.usage?.reasoning).toBe(179);
    const vertex = geminiImageGeneration.decodeResponse(readJsonFixture('google/images/pydantic-ai.vertex.gemini-2.5-flash-image.text-and-image.json'), imageRequest());
    expect(vertex.images).toHaveLength(1);
    expect(vertex.usage).toEqual({ inputUncached: 9, cacheRead: 0, cacheWrite: 0, output: 1295, reasoning: 0 });
  });

  it('reports no size for an edit that left the shape to its input picture', () => {
    const body = { candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }, finishReason: 'STOP' }] };
    expect(geminiImageGeneration.decodeResponse(body, imageRequest({ inputImages: [photo] }))).not.toHaveProperty('size');
  });

  it('skips the interim images Gemini 3 draws while thinking', () => {
    const body = {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'DRAFT' }, thought: true }, { inlineData: { mimeType: 'image/png', data: 'FINAL' } }] } }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1290 },
    };
    expect(geminiImageGeneration.decodeResponse(body, imageRequest()).images).toEqual([{ base64: 'FINAL' }]);
  });

  it('makes a blocked prompt a 400 keeping the block reason and its message', () => {
    const body = { promptFeedback: { blockReason: 'PROHIBITED_CONTENT', blockReasonMessage: 'The prompt is not allowed.' }, usageMetadata: { promptTokenCount: 9 } };
    expect(errorFields(thrownBy(() => geminiImageGeneration.decodeResponse(body, imageRequest())))).toEqual({
      code: 'upstream_client_error',
      status: 400,
      upstreamType: 'PROHIBITED_CONTENT',
      message: 'Gemini returned no image (PROHIBITED_CONTENT): The prompt is not allowed.',
    });
  });

  it('makes an image withheld for safety (finishReason IMAGE_SAFETY) a 400 with the finish message', () => {
    const body = {
      candidates: [{ content: { role: 'model' }, finishReason: 'IMAGE_SAFETY', finishMessage: 'Unable to show the generated image.' }],
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
    };
    expect(errorFields(thrownBy(() => geminiImageGeneration.decodeResponse(body, imageRequest())))).toMatchObject({
      status: 400,
      upstreamType: 'IMAGE_SAFETY',
      message: 'Gemini returned no image (IMAGE_SAFETY): Unable to show the generated image.',
    });
  });

  it('makes an answer in words only a 400 quoting them', () => {
    const body = { candidates: [{ content: { parts: [{ text: 'I cannot draw that person.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 4 } };
    expect(errorFields(thrownBy(() => geminiImageGeneration.decodeResponse(body, imageRequest())))).toMatchObject({
      status: 400,
      upstreamType: 'NO_IMAGE',
      message: 'Gemini returned no image (NO_IMAGE): I cannot draw that person.',
    });
  });

  it('leaves HTTP errors to the adapter decoder, which keeps status, message and status name', () => {
    const body = '{"error":{"code":400,"message":"Image generation is not available in your country.","status":"FAILED_PRECONDITION"}}';
    expect(errorFields(decodeGeminiError(400, body, {}))).toEqual({
      code: 'upstream_client_error',
      status: 400,
      upstreamType: 'FAILED_PRECONDITION',
      message: 'Gemini upstream error: Image generation is not available in your country.',
    });
    expect(decodeGeminiError(429, readFixture('google/generate-content/google-429-retry-info.json'), {}).status).toBe(429);
  });
});
