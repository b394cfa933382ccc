import { describe, expect, it } from 'vitest';
import { catalogModelFromConfig } from '../catalog/catalog-model-from-config.js';
import { configSchema } from './config-schema.js';

function issuePaths(raw: Record<string, unknown>): string[] {
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('rate window and upstream cap configuration', () => {
  it('counts rate limits per minute unless window_seconds says otherwise', () => {
    expect(configSchema.parse({}).limits).toEqual({ window_seconds: 60 });
    expect(configSchema.parse({ limits: { window_seconds: 3 } }).limits.window_seconds).toBe(3);
    expect(issuePaths({ limits: { window_seconds: 0 } })).toEqual(['limits.window_seconds']);
    expect(issuePaths({ limits: { window_seconds: 1.5 } })).toEqual(['limits.window_seconds']);
    expect(issuePaths({ limits: { window: 60 } })).toEqual(['limits']);
  });

  it("takes a provider's max_concurrency as a positive whole number and puts it on that provider's routes only", () => {
    expect(issuePaths({ providers: { local: { type: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', max_concurrency: 0 } } })).toEqual(['providers.local.max_concurrency']);
    const config = configSchema.parse({
      providers: {
        capped: { type: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', max_concurrency: 4 },
        free: { type: 'openai-compatible', base_url: 'http://127.0.0.1:2/v1' },
      },
      models: [{ id: 'm', routes: [{ provider: 'capped', model: 'a' }, { provider: 'free', model: 'b' }] }],
    });
    const model = catalogModelFromConfig(config.models[0]!, 'models[0]', config, {});
    expect(model.routes.map((route) => route.maxConcurrency)).toEqual([4, undefined]);
    expect('maxConcurrency' in model.routes[1]!).toBe(false);
  });
});
