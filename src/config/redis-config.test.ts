import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.js';
import { loadConfig } from './load-config.js';

function issuePaths(raw: Record<string, unknown>): string[] {
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('redis configuration', () => {
  it('is absent by default: limits and budgets hold per process', () => {
    expect(configSchema.parse({}).redis).toBeUndefined();
  });

  it('fails limits open and budgets closed by default, with short timeouts', () => {
    expect(configSchema.parse({ redis: { url: 'redis://127.0.0.1:6379' } }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      limits_fail_mode: 'open',
      budgets_fail_mode: 'closed',
      connect_timeout_ms: 2_000,
      command_timeout_ms: 500,
      key_prefix: 'switchyard:',
    });
  });

  it('takes REDIS_URL from the environment with the same defaults', () => {
    const config = loadConfig({ environment: { REDIS_URL: 'redis://cache:6380/2' } });
    expect(config.redis).toMatchObject({ url: 'redis://cache:6380/2', limits_fail_mode: 'open', budgets_fail_mode: 'closed' });
  });

  it('refuses a fail mode other than open or closed, and unknown keys, naming them', () => {
    expect(issuePaths({ redis: { url: 'redis://x', limits_fail_mode: 'ignore' } })).toEqual(['redis.limits_fail_mode']);
    expect(issuePaths({ redis: { url: 'redis://x', budgets_fail_mode: 'closed', command_timeout_ms: 0 } })).toEqual(['redis.command_timeout_ms']);
    expect(issuePaths({ redis: { url: 'redis://x', fail_mode: 'open' } })).toEqual(['redis']);
  });
});
