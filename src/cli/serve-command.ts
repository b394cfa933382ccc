import type { GatewayConfig } from '../config/config-schema.js';
import { createLogger } from '../logging/logger.js';
import { readableLogStream } from '../logging/readable-log-stream.js';
import { startGateway } from '../server/start-gateway.js';
import { startLine, summarizeStart } from './start-line.js';

/**
 * Runs the gateway until SIGINT or SIGTERM, then drains: open streams end, the ledger is written.
 * On a terminal (unless `log.format` says otherwise) it prints a readable start line and logs one
 * readable line per record; under a process manager it keeps JSON lines for the collector.
 */
export async function runServeCommand(config: GatewayConfig, stdoutIsTerminal: boolean): Promise<number> {
  const readable = config.log.format === 'readable' || (config.log.format === 'auto' && stdoutIsTerminal);
  const logger = readable ? createLogger(config.log.level, readableLogStream(process.stdout)) : createLogger(config.log.level);
  const gateway = await startGateway(config, { logger, logListening: !readable });
  if (readable) console.log(startLine(await summarizeStart(gateway)));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  gateway.services.logger.info('shutting down');
  await gateway.close();
  return 0;
}
