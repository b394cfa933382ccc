import type { Server } from 'node:http';
import type { Logger } from '../logging/logger.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';

/** At most one warning in this long, however many connections are refused: a flood must not flood the log too. */
const warningIntervalMs = 10_000;

/**
 * Holds the server to `maxConnections` client connections at once. Node closes a connection beyond
 * it as soon as it is accepted (before any byte is read), so the refusal costs almost nothing and
 * the connections already held go on being served. Each refusal is counted in the metrics, and the
 * operator is told, with how many were refused, at most once every ten seconds.
 */
export function capConnections(server: Server, maxConnections: number, logger: Logger, metrics: Pick<GatewayMetrics, 'observeRefusedConnection'>): void {
  server.maxConnections = maxConnections;
  let refused = 0;
  let lastWarningAt = 0;
  server.on('drop', () => {
    metrics.observeRefusedConnection();
    refused += 1;
    const now = Date.now();
    if (now - lastWarningAt < warningIntervalMs) return;
    logger.warn({ refused, maxConnections }, 'connections refused: server.max_connections reached');
    lastWarningAt = now;
    refused = 0;
  });
}
