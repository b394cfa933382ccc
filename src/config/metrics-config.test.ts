import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.js';
import { restartOnlyChanges } from './restart-only-changes.js';

function issuePaths(raw: Record<string, unknown>): string[] {
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('metrics configuration', () => {
  it('leaves /metrics public by default', () => {
    expect(configSchema.parse({}).metrics).toEqual({ require_admin_key: false });
    expect(configSchema.parse({ metrics: {} }).metrics).toEqual({ require_admin_key: false });
  });

  it('takes require_admin_key as a boolean', () => {
    expect(configSchema.parse({ metrics: { require_admin_key: true } }).metrics.require_admin_key).toBe(true);
    expect(issuePaths({ metrics: { require_admin_key: 'yes' } })).toEqual(['metrics.require_admin_key']);
  });

  it('refuses an unknown key, naming it', () => {
    const parsed = configSchema.safeParse({ metrics: { require_admin: true } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['metrics']);
    expect(parsed.error?.issues[0]?.message).toContain('require_admin');
  });

  it('tells the operator that changing it needs a restart', () => {
    const running = configSchema.parse({});
    const reloaded = configSchema.parse({ metrics: { require_admin_key: true } });
    expect(restartOnlyChanges(running, reloaded)).toEqual(['metrics.require_admin_key']);
  });
});
