import type { CatalogSnapshot } from '../catalog/catalog-snapshot.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { restartOnlyChanges } from '../config/restart-only-changes.js';
import type { Logger } from '../logging/logger.js';

/** What asked for the reload, for the log line. */
export type ReloadTrigger = 'SIGHUP' | 'file change';

export type ReloadResult =
  | { readonly outcome: 'reloaded'; readonly models: number; readonly restartNeededFor: readonly string[] }
  | { readonly outcome: 'refused'; readonly reason: string }
  | { readonly outcome: 'no file' };

export interface ConfigReloaderOptions {
  /** The file the configuration came from; undefined when the gateway runs on the defaults. */
  readonly file: string | undefined;
  /** Reads and validates the configuration the same way the start did; throws ConfigError naming the field. */
  readonly load: () => GatewayConfig;
  /** The configuration the process started with: what a change needing a restart is measured against. */
  readonly running: GatewayConfig;
  /** Puts a loaded configuration in force (the running gateway's `applyConfig`). */
  readonly apply: (next: GatewayConfig) => Promise<CatalogSnapshot>;
  readonly logger: Logger;
}

export interface ConfigReloader {
  reload(trigger: ReloadTrigger): Promise<ReloadResult>;
}

/**
 * Reloads providers, models, prices, routing and the log level from the configuration file, one
 * reload at a time, and logs one line for each: reloaded with the model count, or refused with
 * the reason. A refused file leaves the running catalog exactly as it was.
 */
export function createConfigReloader(options: ConfigReloaderOptions): ConfigReloader {
  const { file, load, running, apply, logger } = options;
  let previous: Promise<unknown> = Promise.resolve();

  const reloadNow = async (trigger: ReloadTrigger): Promise<ReloadResult> => {
    if (file === undefined) {
      // Without a file the defaults come from the environment, which a running process cannot be given anew.
      logger.info({ trigger }, 'config reload skipped: running on the defaults, there is no config file to read');
      return { outcome: 'no file' };
    }
    let next: GatewayConfig;
    let models: number;
    try {
      next = load();
      models = (await apply(next)).catalog.models.length;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // The start-up message lists one field per line; a log record stays on one line.
      logger.error({ trigger, file }, `config reload refused, the running catalog is kept: ${reason.replace(/\n\s*/g, '; ')}`);
      return { outcome: 'refused', reason };
    }
    const restartNeededFor = restartOnlyChanges(running, next);
    const count = `${models} ${models === 1 ? 'model' : 'models'}`;
    if (restartNeededFor.length === 0) logger.info({ trigger, file, models }, `config reloaded: ${count}`);
    else logger.warn({ trigger, file, models, restartNeededFor }, `config reloaded: ${count}; ${restartNeededFor.join(', ')} changed but only take effect after a restart`);
    return { outcome: 'reloaded', models, restartNeededFor };
  };

  return {
    reload(trigger) {
      // Two signals in quick succession must not interleave: the later file wins, whole.
      const result = previous.catch(() => undefined).then(() => reloadNow(trigger));
      previous = result;
      return result;
    },
  };
}
