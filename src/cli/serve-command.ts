import type { GatewayConfig } from '../config/config-schema.js';
import { watchConfigFile } from '../config/watch-config-file.js';
import { createLogger } from '../logging/logger.js';
import { readableLogStream } from '../logging/readable-log-stream.js';
import { createConfigReloader } from '../app/config-reloader.js';
import { startGateway } from '../app/start-gateway.js';
import { startLine, summarizeStart } from './start-line.js';
import { releaseYoungGeneration } from './young-generation.js';

/** Where the running configuration came from, so it can be read again. */
export interface ConfigSource {
  /** Undefined when the gateway runs on the built-in defaults. */
  readonly file: string | undefined;
  readonly load: () => GatewayConfig;
}

/**
 * Runs the gateway until SIGINT or SIGTERM, then drains: `/ready` answers 503, calls and streams
 * in flight get `server.shutdown_grace_seconds` to end, the ledger is written; a second signal
 * exits at once.
 * SIGHUP, and a change to the config file when `server.watch_config` is on, reload providers,
 * models, prices and routing without dropping a call.
 * On a terminal (unless `log.format` says otherwise) it prints a readable start line and logs one
 * readable line per record; under a process manager it keeps JSON lines for the collector.
 */
export async function runServeCommand(config: GatewayConfig, stdoutIsTerminal: boolean, source: ConfigSource): Promise<number> {
  const readable = config.log.format === 'readable' || (config.log.format === 'auto' && stdoutIsTerminal);
  const logger = readable ? createLogger(config.log.level, readableLogStream(process.stdout)) : createLogger(config.log.level);
  // Node ends the process on SIGHUP by default; take it over before the slow part of the start,
  // and honour one that arrives meanwhile (the file may have changed since it was read).
  let hangupWhileStarting = false;
  let reload = () => {
    hangupWhileStarting = true;
  };
  const onHangup = () => reload();
  process.on('SIGHUP', onHangup);
  const gateway = await startGateway(config, { logger, logListening: !readable }).finally(releaseYoungGeneration);
  const reloader = createConfigReloader({ ...source, running: config, apply: (next) => gateway.applyConfig(next), logger });
  reload = () => void reloader.reload('SIGHUP');
  if (hangupWhileStarting) reload();
  const watch =
    config.server.watch_config && source.file !== undefined
      ? watchConfigFile(source.file, () => void reloader.reload('file change'), {
          onError: (error) => logger.error({ err: error, file: source.file }, 'watching the config file stopped; SIGHUP still reloads'),
        })
      : undefined;
  if (readable) console.log(startLine(await summarizeStart(gateway)));
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // A second signal means "now": the operator does not want to wait for the grace.
  const exitNow = (second: NodeJS.Signals): void => {
    gateway.services.logger.warn({ signal: second }, 'second signal: exiting without waiting for calls in flight');
    process.exit(128 + (second === 'SIGINT' ? 2 : 15));
  };
  process.once('SIGINT', exitNow);
  process.once('SIGTERM', exitNow);
  process.off('SIGHUP', onHangup);
  watch?.close();
  gateway.services.logger.info({ signal, graceSeconds: config.server.shutdown_grace_seconds }, 'shutting down: draining calls in flight');
  await gateway.close();
  gateway.services.logger.info('stopped');
  return 0;
}
