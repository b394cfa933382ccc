import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.js';
import { restartOnlyChanges } from './restart-only-changes.js';

const base = {
  server: { port: 8787 },
  database: { url: 'sqlite:./a.db' },
  providers: { local: { type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' } },
  models: [{ id: 'alpha', routes: [{ provider: 'local', model: 'alpha' }] }],
};

describe('restartOnlyChanges', () => {
  it('is empty when only what reloads has changed', () => {
    const running = configSchema.parse(base);
    const reloaded = configSchema.parse({
      ...base,
      providers: { other: { type: 'openai-compatible', base_url: 'http://127.0.0.1:10/v1' } },
      models: [{ id: 'beta', routes: [{ provider: 'other', model: 'beta' }], price: { input_per_mtok: '1.00' } }],
      routing: { timeout_ms: 5 },
      log: { level: 'debug' },
    });
    expect(restartOnlyChanges(running, reloaded)).toEqual([]);
  });

  it('names each field that needs a restart', () => {
    const running = configSchema.parse(base);
    const reloaded = configSchema.parse({
      ...base,
      server: { port: 9000, host: '0.0.0.0' },
      database: { url: 'sqlite:./b.db' },
      redis: { url: 'redis://127.0.0.1:6379' },
      log: { format: 'json' },
    });
    expect(restartOnlyChanges(running, reloaded).sort()).toEqual(['database.url', 'log.format', 'redis', 'server.host', 'server.port']);
  });
});
