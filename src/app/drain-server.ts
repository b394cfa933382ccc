import type { Server } from 'node:http';
import { GatewayError } from '../errors/gateway-error.js';
import type { Logger } from '../logging/logger.js';
import type { CallDrain } from '../call/call-drain.js';

/** How long calls stopped at the end of the grace get to write their error event and end. */
const stoppedCallsEndMs = 2_000;
/** How often connections left idle by an answer that just ended are closed during a drain. */
const idleSweepMs = 100;

/**
 * Stops taking connections and lets the calls in flight end within `graceMs`. Keep-alive
 * connections are closed as soon as they are idle, and answers started meanwhile close theirs
 * (the request listener sees `drain.draining`). Calls still running when the grace is over are
 * stopped: a stream ends with its format's own error event, a call not yet answered gets a 503 in
 * the client's shape; whatever still holds a connection after that is cut.
 */
export async function drainServer(server: Server, drain: CallDrain, graceMs: number, logger: Logger): Promise<void> {
  drain.begin();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), idleSweepMs);
  sweep.unref();
  try {
    if (await settlesWithin(closed, graceMs)) return;
    const stopped = drain.stopAll(new GatewayError('not_ready', 'The gateway is shutting down; retry the request.'));
    logger.warn({ calls: stopped, graceSeconds: graceMs / 1000 }, 'shutdown grace over: stopping the calls still in flight');
    if (await settlesWithin(closed, stoppedCallsEndMs)) return;
    // Clients that stopped reading, or answers not tracked as calls (content downloads).
    server.closeAllConnections();
    await closed;
  } finally {
    clearInterval(sweep);
  }
}

async function settlesWithin(promise: Promise<void>, milliseconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), milliseconds);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
