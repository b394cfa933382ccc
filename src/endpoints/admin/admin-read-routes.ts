import type { Hono } from 'hono';
import { GatewayError } from '../../errors/gateway-error.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext, GatewayEnvironment } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { handleAdminRoutes } from './admin-routes-endpoint.js';
import { handleAdminVideoContent, handleAdminVideos } from './admin-videos-endpoints.js';
import { handleLedgerExport } from './ledger-export-endpoint.js';
import { LedgerTail } from './ledger-tail.js';
import { handleRecentCalls } from './recent-calls-endpoint.js';
import { handleRecentCallsStream } from './recent-calls-stream-endpoint.js';
import { handleUsageSeries } from './usage-series-endpoint.js';
import { handleUsage } from './usage-endpoint.js';

/**
 * The read side of the admin API (docs/api.md, "Admin API"): usage, series, the ledger, recent calls and
 * their live stream, and every key's video jobs. One ledger tail per app (so per process) serves
 * all open streams.
 */
export function registerAdminReadRoutes(app: Hono<GatewayEnvironment>, services: GatewayServices): void {
  const tail = new LedgerTail(services.storage.ledger, {
    intervalMs: services.config.admin.stream_poll_interval_ms,
    lookbackMs: services.config.admin.stream_lookback_seconds * 1000,
    logger: services.logger,
  });
  const routes: [string, (context: GatewayContext) => Promise<Response>][] = [
    ['/admin/usage', (context) => handleUsage(context, services)],
    ['/admin/usage/series', (context) => handleUsageSeries(context, services)],
    ['/admin/ledger', (context) => handleLedgerExport(context, services)],
    ['/admin/requests', (context) => handleRecentCalls(context, services)],
    ['/admin/requests/stream', (context) => handleRecentCallsStream(context, services, tail)],
    ['/admin/videos', (context) => handleAdminVideos(context, services)],
    ['/admin/videos/:id/content', (context) => handleAdminVideoContent(context, services)],
    ['/admin/routes', (context) => handleAdminRoutes(context, services)],
  ];
  for (const [path, handler] of routes) {
    app.get(path, handler);
    app.all(path, (context) => {
      const response = errorResponse(new GatewayError('method_not_allowed', 'Method not allowed: use GET.'), context.get('requestId'));
      response.headers.set('allow', 'GET');
      return response;
    });
  }
}
