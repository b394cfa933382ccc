import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/config-schema.js';
import { ModelCatalog } from './model-catalog.js';
import { LiveCatalog } from './live-catalog.js';

function snapshotOf(models: readonly string[], timeoutMs: number) {
  const config = configSchema.parse({
    providers: { local: { type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' } },
    models: models.map((id) => ({ id, routes: [{ provider: 'local', model: id }] })),
    routing: { timeout_ms: timeoutMs },
  });
  return { catalog: new ModelCatalog(config), routing: config.routing };
}

describe('LiveCatalog', () => {
  it('serves the snapshot it was given until it is replaced', () => {
    const first = snapshotOf(['alpha'], 1_000);
    const live = new LiveCatalog(first);
    expect(live.current()).toBe(first);
    expect(live.current().catalog.find('alpha')?.id).toBe('alpha');
  });

  it('puts a replacement in force for later callers and returns the one it replaced', () => {
    const first = snapshotOf(['alpha'], 1_000);
    const second = snapshotOf(['alpha', 'beta'], 2_000);
    const live = new LiveCatalog(first);
    expect(live.replace(second)).toBe(first);
    expect(live.current()).toBe(second);
    expect(live.current().catalog.find('beta')?.id).toBe('beta');
    expect(live.current().routing.timeout_ms).toBe(2_000);
  });

  it('leaves a snapshot already taken as it was: models and routing together', () => {
    const live = new LiveCatalog(snapshotOf(['alpha'], 1_000));
    const taken = live.current();
    live.replace(snapshotOf(['beta'], 2_000));
    expect(taken.catalog.find('alpha')?.id).toBe('alpha');
    expect(taken.catalog.find('beta')).toBeUndefined();
    expect(taken.routing.timeout_ms).toBe(1_000);
    expect(live.current().catalog.find('alpha')).toBeUndefined();
  });
});
