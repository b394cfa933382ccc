import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminCaller } from './admin-caller.js';
import { adminJson, refuseUnknownQuery } from './admin-answer.js';
import { describeAdminKey } from '../../keys/key-object.js';
import { keyFromPath } from './admin-key-lookup.js';

const listQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100'))
    .optional(),
  after: z.string().min(1).optional(),
});

/**
 * `GET /admin/keys?limit=&after=`: keys newest first, revoked and expired ones included; every key
 * without `limit`, else a page after the key id `after`. Spend is read for the page only.
 */
export async function handleListKeys(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const raw = context.req.query();
    refuseUnknownQuery(raw, ['limit', 'after']);
    const query = parseOrThrow(listQuerySchema, raw);
    const now = new Date();
    let keys = await services.storage.keys.list();
    if (query.after !== undefined) {
      const index = keys.findIndex((key) => key.id === query.after);
      if (index < 0) throw new GatewayError('invalid_field', `Invalid value for 'after': no API key has the id '${query.after}'.`, { param: 'after' });
      keys = keys.slice(index + 1);
    }
    const page = query.limit === undefined ? keys : keys.slice(0, query.limit);
    const data = await Promise.all(page.map((key) => describeAdminKey(services.storage, key, now)));
    return adminJson({ object: 'list', data, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: page.length < keys.length }, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** `GET /admin/keys/{id}`. */
export async function handleGetKey(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    refuseUnknownQuery(context.req.query(), []);
    return adminJson(await describeAdminKey(services.storage, await keyFromPath(context, services)), requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
