import { describe, expect, it } from 'vitest';
import { resolveBaseUrl } from '../../catalog/catalog-model-from-config.js';
import { configSchema } from '../../config/config-schema.js';
import type { UpstreamTarget } from '../provider-adapter.js';
import { publisherOf, vertexBaseUrl, vertexClaudeCountUrl, vertexClaudeUrl, vertexGenerateUrl, vertexModelUrl } from './vertex-endpoint.js';

const target = (model: string, location = 'us-east5', baseUrl = vertexBaseUrl(location)): UpstreamTarget => ({
  providerName: 'vertex',
  kind: 'vertex',
  baseUrl,
  model,
  vertex: { project: 'my-project', location },
});

describe('Vertex AI addresses', () => {
  it('uses the regional endpoint of a location, and the unprefixed one for global', () => {
    expect(vertexBaseUrl('us-east5')).toBe('https://us-east5-aiplatform.googleapis.com');
    expect(vertexBaseUrl('europe-west1')).toBe('https://europe-west1-aiplatform.googleapis.com');
    expect(vertexBaseUrl('global')).toBe('https://aiplatform.googleapis.com');
  });

  it('gives an unconfigured provider the root at its location, and keeps a configured one', () => {
    const providers = configSchema.parse({
      providers: {
        regional: { type: 'vertex', project: 'p', location: 'us-east5' },
        global: { type: 'vertex', project: 'p', location: 'global' },
        private: { type: 'vertex', project: 'p', location: 'us-east5', base_url: 'https://vertex.internal.example/v1/' },
      },
    }).providers;
    expect(resolveBaseUrl(providers.regional!, undefined)).toBe('https://us-east5-aiplatform.googleapis.com');
    expect(resolveBaseUrl(providers.global!, undefined)).toBe('https://aiplatform.googleapis.com');
    expect(resolveBaseUrl(providers.private!, undefined)).toBe('https://vertex.internal.example');
  });

  it('addresses Gemini on the Google publisher path, streaming by alt=sse', () => {
    const base = 'https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-2.5-pro';
    expect(vertexGenerateUrl(target('gemini-2.5-pro'), false)).toBe(`${base}:generateContent`);
    expect(vertexGenerateUrl(target('models/gemini-2.5-pro'), true)).toBe(`${base}:streamGenerateContent?alt=sse`);
    expect(vertexGenerateUrl(target('gemini-2.5-pro', 'global'), false)).toBe(
      'https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/google/models/gemini-2.5-pro:generateContent',
    );
  });

  it('addresses Claude on the Anthropic publisher path, and its token count on count-tokens', () => {
    const claude = target('claude-opus-4-1@20250805');
    const base = 'https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/publishers/anthropic/models';
    expect(vertexClaudeUrl(claude, false)).toBe(`${base}/claude-opus-4-1@20250805:rawPredict`);
    expect(vertexClaudeUrl(claude, true)).toBe(`${base}/claude-opus-4-1@20250805:streamRawPredict`);
    expect(vertexClaudeCountUrl(claude)).toBe(`${base}/count-tokens:rawPredict`);
  });

  it('tells Claude models from Google\'s by their id', () => {
    expect(publisherOf('claude-sonnet-4-5@20250929')).toBe('anthropic');
    expect(publisherOf('gemini-2.5-flash')).toBe('google');
    expect(publisherOf('imagen-4.0-generate-001')).toBe('google');
    expect(publisherOf('veo-3.0-generate-001')).toBe('google');
  });

  it('refuses a target without project and location rather than calling a wrong address', () => {
    const { vertex: _settings, ...bare } = target('gemini-2.5-pro');
    expect(() => vertexModelUrl(bare, 'google')).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });
});
