import { GatewayError } from '../../errors/gateway-error.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';

/** The key named by the path's `{id}`; 404 when there is none. */
export async function keyFromPath(context: GatewayContext, services: GatewayServices): Promise<ApiKeyRecord> {
  const id = context.req.param('id') ?? '';
  const key = /^key_[A-Za-z0-9_-]{1,100}$/.test(id) ? await services.storage.keys.findById(id) : undefined;
  if (key === undefined) throw new GatewayError('not_found', `No API key found with id '${id}'.`, { param: 'id' });
  return key;
}
