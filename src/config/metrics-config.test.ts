import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.js';
import { restartOnlyChanges } from './restart-only-changes.js';

function issuePaths(raw: Record<string, unknown>): string[] {
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('metrics configuration', () => {
  it('keeps /metrics behind an admin key by default', () => {
    expect(configSchema.parse({}).metrics).toEqual({ public: false });
    expect(configSchema.parse({ metrics: {} }).metrics).toEqual({ public: false });
  });

  it('takes public as a boolean', () => {
    expect(configSchema.parse({ metrics: { public: true } }).metrics.public).toBe(true);
    expect(issuePaths({ metrics: { public: 'yes' } })).toEqual(['metrics.public']);
  });

  it('takes the former require_admin_key: true as what the default now does', () => {
    expect(configSchema.parse({ metrics: { require_admin_key: true } }).metrics).toMatchObject({ public: false, require_admin_key: true });
  });

  it('refuses the former require_admin_key: false, saying what replaced it', () => {
    const parsed = configSchema.safeParse({ metrics: { require_admin_key: false } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['metrics', 'require_admin_key']);
    expect(parsed.error?.issues[0]?.message).toContain('metrics.public');
  });

  it('refuses require_admin_key: true beside public: true, which say opposite things', () => {
    const parsed = configSchema.safeParse({ metrics: { public: true, require_admin_key: true } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['metrics', 'require_admin_key']);
    expect(parsed.error?.issues[0]?.message).toContain('metrics.public');
  });

  it('refuses an unknown key, naming it', () => {
    const parsed = configSchema.safeParse({ metrics: { publik: true } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['metrics']);
    expect(parsed.error?.issues[0]?.message).toContain('publik');
  });

  it('tells the operator that changing it needs a restart', () => {
    const running = configSchema.parse({});
    const reloaded = configSchema.parse({ metrics: { public: true } });
    expect(restartOnlyChanges(running, reloaded)).toEqual(['metrics.public']);
  });
});
