import { errorResponse } from '../error-response.js';
import type { GatewayContext } from '../exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminCaller } from './admin-caller.js';
import { adminJson, refuseUnknownQuery } from './admin-answer.js';
import { describeAdminKey } from '../../keys/key-object.js';
import { keyFromPath } from './admin-key-lookup.js';

/** `GET /admin/keys`: every key, newest first, revoked and expired ones included. */
export async function handleListKeys(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    refuseUnknownQuery(context.req.query(), []);
    const now = new Date();
    const keys = await services.storage.keys.list();
    const data = await Promise.all(keys.map((key) => describeAdminKey(services.storage, key, now)));
    return adminJson({ object: 'list', data, first_id: keys[0]?.id ?? null, last_id: keys.at(-1)?.id ?? null, has_more: false }, requestId);
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
