import type { Hono } from 'hono';
import type { GatewayEnvironment } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminMethodNotAllowed } from './admin-answer.js';
import { handleListAudit } from './audit-endpoint.js';
import { handleGetKey, handleListKeys } from './key-read-endpoints.js';
import { handleCreateKey, handleRevokeKey, handleUpdateKey } from './key-write-endpoints.js';
import { handleRotateKey } from './rotate-key-endpoint.js';

/** `/admin/keys` and `/admin/audit` (docs/api.md, "Admin API"). */
export function registerAdminKeyRoutes(app: Hono<GatewayEnvironment>, services: GatewayServices): void {
  app.get('/admin/keys', (context) => handleListKeys(context, services));
  app.post('/admin/keys', (context) => handleCreateKey(context, services));
  app.all('/admin/keys', (context) => adminMethodNotAllowed(context, 'GET, POST'));
  app.get('/admin/keys/:id', (context) => handleGetKey(context, services));
  app.patch('/admin/keys/:id', (context) => handleUpdateKey(context, services));
  app.delete('/admin/keys/:id', (context) => handleRevokeKey(context, services));
  app.all('/admin/keys/:id', (context) => adminMethodNotAllowed(context, 'GET, PATCH, DELETE'));
  app.post('/admin/keys/:id/rotate', (context) => handleRotateKey(context, services));
  app.all('/admin/keys/:id/rotate', (context) => adminMethodNotAllowed(context, 'POST'));
  app.get('/admin/audit', (context) => handleListAudit(context, services));
  app.all('/admin/audit', (context) => adminMethodNotAllowed(context, 'GET'));
}
