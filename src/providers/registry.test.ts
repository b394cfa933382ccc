import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from './provider-adapter.js';
import { adapterFor, adapterForKind } from './registry.js';

const compatibleWithResponses: UpstreamTarget = {
  providerName: 'local',
  kind: 'openai-compatible',
  baseUrl: 'http://localhost:8000/v1',
  model: 'flux',
  servesResponses: true,
};

describe('image generation by upstream kind', () => {
  it('is offered by OpenAI, compatible servers and Gemini, and edits there', () => {
    for (const kind of ['openai', 'openai-compatible', 'gemini'] as const) {
      expect(adapterForKind(kind).images?.edits).toBe(true);
    }
    expect(adapterFor(compatibleWithResponses).images).toBeDefined();
  });

  it('is absent for Anthropic, which generates no images', () => {
    expect(adapterForKind('anthropic').images).toBeUndefined();
  });
});
