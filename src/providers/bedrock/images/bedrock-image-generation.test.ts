import { describe, expect, it } from 'vitest';
import { readFixture, readJsonFixture } from '../../../../test/support/fixtures.js';
import type { GatewayError } from '../../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../../ir/index.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { adapterFor } from '../../registry.js';
import { bedrockImageGeneration } from './bedrock-image-generation.js';
import { imagesOnBedrockAdapter } from './images-on-bedrock-adapter.js';

const target = (model: string): UpstreamTarget => ({ providerName: 'bedrock', kind: 'bedrock', baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', model, bedrock: { region: 'us-east-1' } });
const nova = target('amazon.nova-canvas-v1:0');
const ultra = target('stability.stable-image-ultra-v1:1');
const request = (fields: Partial<ImageGenerationRequest>): ImageGenerationRequest => ({ prompt: 'A car made out of vegetables.', n: 1, partialImages: 0, ...fields });
const thrown = (run: () => unknown): GatewayError => {
  try {
    run();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('nothing was thrown');
};

describe('Nova Canvas through InvokeModel', () => {
  it('sends the documented TEXT_IMAGE body to the model\'s invoke path', () => {
    const documented = readJsonFixture('bedrock/images/nova-canvas-text-image-request.json') as { imageGenerationConfig: Record<string, unknown> };
    const built = bedrockImageGeneration.buildRequest(request({ prompt: 'A stylized picture of a cute old steampunk robot.', size: '512x512', quality: 'standard' }), nova);
    expect(built.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-canvas-v1%3A0/invoke');
    // The documented body, but for the seed its example draws at random (the Images API has none).
    const { seed: _seed, ...config } = documented.imageGenerationConfig;
    expect(JSON.parse(String(built.body))).toEqual({ ...documented, imageGenerationConfig: config });
  });

  it('asks for every picture in one call, at the tier and size asked, and 1024x1024 standard when left to the model', () => {
    const premium = JSON.parse(String(bedrockImageGeneration.buildRequest(request({ n: 3, size: '1280x720', quality: 'premium' }), nova).body)) as Record<string, unknown>;
    expect(premium['imageGenerationConfig']).toEqual({ numberOfImages: 3, width: 1280, height: 720, quality: 'premium' });
    const auto = JSON.parse(String(bedrockImageGeneration.buildRequest(request({ size: 'auto', quality: 'auto' }), nova).body)) as Record<string, unknown>;
    expect(auto['imageGenerationConfig']).toEqual({ numberOfImages: 1, width: 1024, height: 1024, quality: 'standard' });
  });

  it('reads the documented answer as PNGs of the size and tier asked', () => {
    const result = bedrockImageGeneration.decodeResponse(readJsonFixture('bedrock/images/nova-canvas-response.json'), request({ size: '512x512' }));
    expect(result).toEqual({ images: [{ base64: 'iVBORw0KGgoAAAANSUhEUgAAAgAAAAIA' }], size: '512x512', quality: 'standard', outputFormat: 'png' });
  });

  it('delivers the pictures left when the filters withheld some, and refuses as content policy when they withheld all', () => {
    const some = bedrockImageGeneration.decodeResponse(readJsonFixture('bedrock/images/nova-canvas-some-blocked-response.json'), request({ n: 2, size: '512x512' }));
    expect(some.images).toHaveLength(1);
    const all = thrown(() => bedrockImageGeneration.decodeResponse(readJsonFixture('bedrock/images/nova-canvas-all-blocked-response.json'), request({ n: 2 })));
    expect(all).toMatchObject({ status: 400, code: 'upstream_client_error', upstreamType: 'content_policy_violation' });
    expect(all.message).toContain('All of the generated images have been blocked by our content filters.');
  });

  it('takes a ValidationException that says the prompt was blocked as a content-policy refusal, any other as a bad request', () => {
    const headers = { 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' };
    const blocked = imagesOnBedrockAdapter.decodeError(400, readFixture('bedrock/images/nova-canvas-prompt-blocked-error.json'), headers);
    expect(blocked).toMatchObject({ status: 400, upstreamType: 'content_policy_violation' });
    expect(blocked.message).toContain('This request has been blocked by our content filters.');
    const other = imagesOnBedrockAdapter.decodeError(400, '{"message":"width must be divisible by 16"}', headers);
    expect(other).toMatchObject({ status: 400, code: 'upstream_client_error' });
    expect(other.upstreamType).not.toBe('content_policy_violation');
  });
});

describe('Stability AI\'s models through InvokeModel', () => {
  it('sends the documented body, with the aspect ratio the asked size stands for', () => {
    const built = bedrockImageGeneration.buildRequest(request({ size: '1024x1024', outputFormat: 'png' }), ultra);
    expect(built.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/stability.stable-image-ultra-v1%3A1/invoke');
    expect(JSON.parse(String(built.body))).toEqual(readJsonFixture('bedrock/images/stable-image-ultra-request.json'));
    const wide = JSON.parse(String(bedrockImageGeneration.buildRequest(request({ size: '1344x768', outputFormat: 'webp' }), ultra).body)) as Record<string, unknown>;
    expect(wide).toMatchObject({ aspect_ratio: '16:9', output_format: 'webp' });
    const auto = JSON.parse(String(bedrockImageGeneration.buildRequest(request({ size: 'auto' }), target('stability.sd3-5-large-v1:0')).body)) as Record<string, unknown>;
    expect(auto).toEqual({ prompt: 'A car made out of vegetables.', output_format: 'png' });
  });

  it('reads the documented answer, and its filtered answer as a content-policy refusal', () => {
    const result = bedrockImageGeneration.decodeResponse(readJsonFixture('bedrock/images/stable-image-ultra-response.json'), request({ size: '1344x768' }));
    expect(result).toEqual({ images: [{ base64: 'iVBORw0KGgoAAAANSUhEUgAABAAAAAQA' }], size: '1344x768', quality: 'standard', outputFormat: 'png' });
    const filtered = thrown(() => bedrockImageGeneration.decodeResponse(readJsonFixture('bedrock/images/stable-image-ultra-filtered-response.json'), request({})));
    expect(filtered).toMatchObject({ status: 400, upstreamType: 'content_policy_violation' });
    expect(filtered.message).toContain('Filter reason: prompt');
  });

  it('takes an inference error as the upstream\'s failure, which another route may still serve', () => {
    const failed = thrown(() => bedrockImageGeneration.decodeResponse({ seeds: [1], finish_reasons: ['Inference error'], images: [''] }, request({})));
    expect(failed).toMatchObject({ code: 'upstream_error', retryable: true });
  });
});

describe('which Bedrock adapter a route gets', () => {
  it('gives image models the images capability and text models none', () => {
    expect(adapterFor(nova).images).toBe(bedrockImageGeneration);
    expect(adapterFor(target('us.stability.stable-image-core-v1:1')).images).toBe(bedrockImageGeneration);
    expect(adapterFor(target('amazon.nova-pro-v1:0')).images).toBeUndefined();
    expect(adapterFor(target('anthropic.claude-sonnet-4-5-20250929-v1:0')).images).toBeUndefined();
  });
});
