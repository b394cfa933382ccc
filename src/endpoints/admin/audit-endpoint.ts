import { z } from 'zod';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import type { AuditEntry } from '../../keys/audit-log.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminCaller } from './admin-caller.js';
import { adminJson, refuseUnknownQuery } from './admin-answer.js';

const auditQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100'))
    .default(20),
  before: z.string().regex(/^audit_[A-Za-z0-9_-]{1,100}$/, 'before must be an audit entry id').optional(),
});

function auditEntryObject(entry: AuditEntry): Record<string, unknown> {
  return {
    id: entry.id,
    object: 'audit_entry',
    at: entry.at.toISOString(),
    actor_key_id: entry.actorKeyId,
    action: entry.action,
    target_id: entry.targetId,
    details: entry.details,
  };
}

/** `GET /admin/audit?limit=&before=`: administrative actions, newest first; `before` is an entry id to page from. */
export async function handleListAudit(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const raw = context.req.query();
    refuseUnknownQuery(raw, ['limit', 'before']);
    const query = parseOrThrow(auditQuerySchema, raw);
    const page = await services.storage.audit.list({ limit: query.limit, ...(query.before === undefined ? {} : { before: query.before }) });
    const data = page.entries.map(auditEntryObject);
    return adminJson({ object: 'list', data, first_id: page.entries[0]?.id ?? null, last_id: page.entries.at(-1)?.id ?? null, has_more: page.hasMore }, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
