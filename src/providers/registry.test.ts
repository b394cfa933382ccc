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

describe('Bedrock models by their id', () => {
  const onBedrock = (model: string): UpstreamTarget => ({ providerName: 'bedrock', kind: 'bedrock', baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', model, bedrock: { region: 'us-east-1' } });

  it('passes Messages clients through to Anthropic\'s models, and translates every client to Converse for the rest', () => {
    expect(adapterFor(onBedrock('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).text?.nativeFormats).toEqual(['messages']);
    expect(adapterFor(onBedrock('amazon.nova-pro-v1:0')).text?.nativeFormats).toEqual([]);
    expect(adapterFor(onBedrock('amazon.nova-pro-v1:0')).text?.buildRequest).toBeDefined();
    expect(adapterFor(onBedrock('amazon.nova-pro-v1:0')).tokenCounting).toBeUndefined();
  });
});
