import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CatalogSnapshot } from '../catalog/catalog-snapshot.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { LiveCatalog } from '../catalog/live-catalog.js';
import { configSchema, type GatewayConfig } from '../config/config-schema.js';
import { ConfigError } from '../config/load-config.js';
import { createLogger } from '../logging/logger.js';
import { createConfigReloader, type ConfigReloaderOptions } from './config-reloader.js';

function configWith(models: readonly string[], extra: Record<string, unknown> = {}): GatewayConfig {
  return configSchema.parse({
    providers: { local: { type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' } },
    models: models.map((id) => ({ id, routes: [{ provider: 'local', model: id }] })),
    ...extra,
  });
}

interface LogRecord {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** A reloader over a live catalog, with `load` answering from `next` and every log record kept. */
function harness(next: () => GatewayConfig, overrides: Partial<ConfigReloaderOptions> = {}) {
  const running = configWith(['alpha']);
  const live = new LiveCatalog({ catalog: new ModelCatalog(running), routing: running.routing });
  const records: LogRecord[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) records.push(JSON.parse(line) as LogRecord);
      callback();
    },
  });
  const apply = (config: GatewayConfig): Promise<CatalogSnapshot> => {
    const snapshot: CatalogSnapshot = { catalog: new ModelCatalog(config), routing: config.routing };
    live.replace(snapshot);
    return Promise.resolve(snapshot);
  };
  const reloader = createConfigReloader({ file: 'switchyard.yaml', load: next, running, apply, logger: createLogger('info', sink), ...overrides });
  return { live, records, reloader };
}

describe('createConfigReloader', () => {
  it('puts the new catalog in force and logs one line with the model count', async () => {
    const { live, records, reloader } = harness(() => configWith(['alpha', 'beta']));
    expect(await reloader.reload('SIGHUP')).toEqual({ outcome: 'reloaded', models: 2, restartNeededFor: [] });
    expect(live.current().catalog.find('beta')?.id).toBe('beta');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 30, msg: 'config reloaded: 2 models', models: 2, trigger: 'SIGHUP' });
  });

  it('refuses a file that fails validation, keeps the running catalog and logs the field', async () => {
    const { live, records, reloader } = harness(() => {
      throw new ConfigError('switchyard.yaml: invalid configuration\n  models[1].routes: Array must contain at least 1 element(s)');
    });
    const before = live.current();
    const result = await reloader.reload('file change');
    expect(result).toMatchObject({ outcome: 'refused', reason: expect.stringContaining('models[1].routes') });
    expect(live.current()).toBe(before);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 50, trigger: 'file change' });
    expect(records[0]?.msg).toContain('models[1].routes');
  });

  it('names, in the same line, changes that only a restart applies', async () => {
    const { records, reloader } = harness(() => configWith(['alpha'], { server: { port: 9999 } }));
    expect(await reloader.reload('SIGHUP')).toMatchObject({ outcome: 'reloaded', restartNeededFor: ['server.port'] });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 40, restartNeededFor: ['server.port'] });
    expect(records[0]?.msg).toContain('server.port');
  });

  it('does nothing but say so when the gateway runs on the defaults', async () => {
    let loads = 0;
    const { records, reloader } = harness(
      () => {
        loads += 1;
        return configWith([]);
      },
      { file: undefined },
    );
    expect(await reloader.reload('SIGHUP')).toEqual({ outcome: 'no file' });
    expect(loads).toBe(0);
    expect(records[0]?.msg).toContain('no config file');
  });

  it('runs reloads one after another, so the later file wins', async () => {
    const versions = [configWith(['alpha', 'beta']), configWith(['alpha', 'beta', 'gamma'])];
    let call = 0;
    const { live, reloader } = harness(() => versions[call++] as GatewayConfig);
    const results = await Promise.all([reloader.reload('SIGHUP'), reloader.reload('file change')]);
    expect(results.map((result) => (result.outcome === 'reloaded' ? result.models : 0))).toEqual([2, 3]);
    expect(live.current().catalog.find('gamma')?.id).toBe('gamma');
  });
});
