import { describe, expect, it } from 'vitest';
import { parseBedrockModelId } from './bedrock-model-id.js';

describe('reading a Bedrock model id for pricing', () => {
  it('splits a cross-region profile into its prefix and the in-region model id', () => {
    expect(parseBedrockModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toEqual({
      id: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      crossRegionPrefix: 'us',
      inRegionId: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
    });
    expect(parseBedrockModelId('global.amazon.nova-2-lite-v1:0').crossRegionPrefix).toBe('global');
    expect(parseBedrockModelId('apac.amazon.nova-pro-v1:0').inRegionId).toBe('amazon.nova-pro-v1:0');
    expect(parseBedrockModelId('us-gov.anthropic.claude-3-haiku-20240307-v1:0').crossRegionPrefix).toBe('us-gov');
  });

  it('leaves a model id without a profile prefix whole', () => {
    expect(parseBedrockModelId('meta.llama3-3-70b-instruct-v1:0')).toEqual({ id: 'meta.llama3-3-70b-instruct-v1:0', inRegionId: 'meta.llama3-3-70b-instruct-v1:0' });
    // "eu" alone, without a vendor after it, is no prefix.
    expect(parseBedrockModelId('eu.model-v1').crossRegionPrefix).toBeUndefined();
  });

  it('takes the id out of a foundation model or inference profile ARN, and keeps an application profile ARN whole', () => {
    expect(parseBedrockModelId('arn:aws:bedrock:eu-west-1::foundation-model/mistral.mistral-large-2402-v1:0').id).toBe('mistral.mistral-large-2402-v1:0');
    expect(parseBedrockModelId('arn:aws:bedrock:us-east-1:111122223333:inference-profile/eu.amazon.nova-lite-v1:0')).toMatchObject({
      crossRegionPrefix: 'eu',
      inRegionId: 'amazon.nova-lite-v1:0',
    });
    const application = 'arn:aws:bedrock:us-east-1:111122223333:application-inference-profile/a1b2c3';
    expect(parseBedrockModelId(application)).toEqual({ id: application, inRegionId: application });
  });
});
