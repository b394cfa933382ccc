import type { GatewayConfig } from '../config/config-schema.js';
import { startGateway } from '../server/start-gateway.js';

/** Runs the gateway until SIGINT or SIGTERM, then drains: open streams end, the ledger is written. */
export async function runServeCommand(config: GatewayConfig): Promise<number> {
  const gateway = await startGateway(config);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  gateway.services.logger.info('shutting down');
  await gateway.close();
  return 0;
}
