import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../errors/gateway-error.js';
import { geminiAdapter } from '../gemini-adapter.js';
import { geminiImageGeneration } from './gemini-image-generation.js';
import { geminiTarget, imageRequest, jsonBody, thrownBy } from './gemini-images.test-support.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';

const target = geminiTarget('imagen-4.0-generate-001');

describe('Imagen through :predict', () => {
  it('is the adapter image capability for the gemini kind', () => {
    expect(geminiAdapter.images).toBe(geminiImageGeneration);
  });

  it('posts the prompt as one instance with the count, the aspect ratio and the filter reason asked for', () => {
    const built = geminiImageGeneration.buildRequest(imageRequest({ n: 3, size: '1280x896', outputFormat: 'jpeg', outputCompression: 70 }), target);
    expect(built.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/imagen-4.0-generate-001:predict');
    expect(built.headers).toMatchObject({ 'content-type': 'application/json', 'x-goog-api-key': 'g-key' });
    expect(jsonBody(built.body)).toEqual({
      instances: [{ prompt: 'A red circle on white' }],
      parameters: { sampleCount: 3, aspectRatio: '4:3', includeRaiReason: true, outputOptions: { mimeType: 'image/jpeg', compressionQuality: 70 } },
    });
  });

  it('sends no aspect ratio when the model picks', () => {
    const built = geminiImageGeneration.buildRequest(imageRequest(), target);
    expect(jsonBody(built.body)).toEqual({ instances: [{ prompt: 'A red circle on white' }], parameters: { sampleCount: 1, includeRaiReason: true } });
  });

  it('refuses to edit: Imagen only generates', () => {
    const image = { bytes: new Uint8Array([1]), mediaType: 'image/png', filename: 'a.png' };
    const error = thrownBy(() => geminiImageGeneration.buildRequest(imageRequest({ inputImages: [image] }), target));
    expect(isGatewayError(error) && { code: error.code, param: error.param }).toEqual({ code: 'unsupported_parameter', param: 'image' });
  });

  it('reads the recorded cookbook answer with the size of the requested ratio', () => {
    const result = geminiImageGeneration.decodeResponse(readJsonFixture('google/images/cookbook-imagen-rest.predict.json'), imageRequest());
    expect(result.images).toHaveLength(1);
    expect(result.images[0]?.base64).toMatch(/^iVBORw0KGgo/);
    expect(result).toMatchObject({ size: '1024x1024', quality: 'standard', outputFormat: 'png' });
    expect(result).not.toHaveProperty('usage');
  });

  it('keeps a redacted recording as an opaque string', () => {
    const request = imageRequest({ size: '1280x896' });
    const result = geminiImageGeneration.decodeResponse(readJsonFixture('google/images/issue-10843-google-imagen-generate-image.json'), request);
    expect(result.images[0]?.base64).toMatch(/^<redacted base64 image bytes/);
    expect(result.size).toBe('1280x896');
  });

  it('reads both Vertex predictions and their enhanced prompts', () => {
    const result = geminiImageGeneration.decodeResponse(readJsonFixture('google/images/google-vertex-image.json'), imageRequest({ n: 2 }));
    expect(result.images).toHaveLength(2);
    expect(result.images[0]?.revisedPrompt).toMatch(/^A minimalist image featuring/);
    expect(result.images[1]?.revisedPrompt).toMatch(/^A minimalist, bold image/);
  });

  it('makes every image filtered a 400 with the filter reason, never an empty success', () => {
    const reason = 'Your current safety filter threshold filtered out the generated image. Try rephrasing the prompt.';
    const error = thrownBy(() => geminiImageGeneration.decodeResponse({ predictions: [{ raiFilteredReason: reason }] }, imageRequest()));
    expect(isGatewayError(error) && { code: error.code, status: error.status, upstreamType: error.upstreamType }).toEqual({
      code: 'upstream_client_error',
      status: 400,
      upstreamType: 'IMAGE_SAFETY',
    });
    expect(isGatewayError(error) && error.message).toContain(reason);
  });

  it('treats the empty answer Imagen gives when it filters silently the same way', () => {
    const error = thrownBy(() => geminiImageGeneration.decodeResponse({}, imageRequest()));
    expect(isGatewayError(error) && { status: error.status, upstreamType: error.upstreamType }).toEqual({ status: 400, upstreamType: 'IMAGE_SAFETY' });
  });

  it('returns the images that passed when only some were filtered', () => {
    const body = { predictions: [{ bytesBase64Encoded: 'AAAA', mimeType: 'image/jpeg' }, { raiFilteredReason: 'filtered' }] };
    const result = geminiImageGeneration.decodeResponse(body, imageRequest({ n: 2 }));
    expect(result.images).toEqual([{ base64: 'AAAA' }]);
    expect(result.outputFormat).toBe('jpeg');
  });
});
