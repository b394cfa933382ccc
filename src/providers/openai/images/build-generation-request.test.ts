import { describe, expect, it } from 'vitest';
import { createOpenAIImageGeneration } from './openai-image-generation.js';
import { imageRequest, imageTarget } from './images.test-support.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';

function jsonBody(body: string | Buffer): unknown {
  return JSON.parse(body.toString());
}

describe('OpenAI images: generations request', () => {
  it('posts JSON to /images/generations with only the fields that are set', () => {
    const images = createOpenAIImageGeneration('openai');
    const built = images.buildRequest(imageRequest({ n: 2, size: '1024x1536', quality: 'high', outputFormat: 'webp', outputCompression: 80 }), imageTarget());
    expect(built.url).toBe('https://api.openai.com/v1/images/generations');
    expect(built.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer sk-test' });
    expect(jsonBody(built.body)).toEqual({
      model: 'gpt-image-1',
      prompt: 'A lighthouse at dawn',
      n: 2,
      size: '1024x1536',
      quality: 'high',
      output_format: 'webp',
      output_compression: 80,
    });
  });

  it('passes background, moderation, style and user through under their wire names', () => {
    const built = createOpenAIImageGeneration('openai').buildRequest(
      imageRequest({ background: 'transparent', moderation: 'low', style: 'vivid', user: 'end-user-7' }),
      imageTarget(),
    );
    expect(jsonBody(built.body)).toMatchObject({ background: 'transparent', moderation: 'low', style: 'vivid', user: 'end-user-7' });
  });

  it('never sends response_format to OpenAI gpt-image models, which reject it', () => {
    const recorded = readJsonFixture('openai/images/gpt-image-response-format-error.json');
    expect(recorded).toMatchObject({ error: { param: 'response_format', code: 'unknown_parameter' } });
    const built = createOpenAIImageGeneration('openai').buildRequest(imageRequest(), imageTarget());
    expect(jsonBody(built.body)).not.toHaveProperty('response_format');
  });

  it('asks dall-e models at OpenAI for base64, since they answer with URLs by default', () => {
    const built = createOpenAIImageGeneration('openai').buildRequest(imageRequest(), imageTarget({ model: 'dall-e-3' }));
    expect(jsonBody(built.body)).toMatchObject({ response_format: 'b64_json' });
  });

  it('asks compatible servers for base64 and sends no credential when none is configured', () => {
    const target = imageTarget({ kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1', model: 'flux-dev' });
    const { apiKey: _unused, ...withoutKey } = target;
    const built = createOpenAIImageGeneration('openai-compatible').buildRequest(imageRequest(), withoutKey);
    expect(built.url).toBe('http://localhost:8000/v1/images/generations');
    expect(built.headers).not.toHaveProperty('authorization');
    expect(jsonBody(built.body)).toEqual({ model: 'flux-dev', prompt: 'A lighthouse at dawn', n: 1, response_format: 'b64_json' });
  });

  it('asks for a stream when partial images are wanted', () => {
    const built = createOpenAIImageGeneration('openai').buildRequest(imageRequest({ partialImages: 2 }), imageTarget());
    expect(jsonBody(built.body)).toMatchObject({ stream: true, partial_images: 2 });
    expect(jsonBody(createOpenAIImageGeneration('openai').buildRequest(imageRequest(), imageTarget()).body)).not.toHaveProperty('stream');
  });
});
