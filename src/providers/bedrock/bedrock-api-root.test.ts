import { describe, expect, it } from 'vitest';
import { resolveBaseUrl } from '../../catalog/catalog-model-from-config.js';
import { configSchema } from '../../config/config-schema.js';

describe('Bedrock Runtime addresses', () => {
  it('gives an unconfigured provider its region\'s public endpoint, and keeps a configured one', () => {
    const providers = configSchema.parse({
      providers: {
        ireland: { type: 'bedrock', region: 'eu-west-1' },
        endpoint: { type: 'bedrock', region: 'us-east-1', base_url: 'https://vpce-0123.bedrock-runtime.us-east-1.vpce.amazonaws.com/' },
      },
    }).providers;
    expect(resolveBaseUrl(providers.ireland!, undefined)).toBe('https://bedrock-runtime.eu-west-1.amazonaws.com');
    expect(resolveBaseUrl(providers.endpoint!, undefined)).toBe('https://vpce-0123.bedrock-runtime.us-east-1.vpce.amazonaws.com');
  });
});
