import { GatewayError } from '../../errors/gateway-error.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { nodeRequestHeaders } from '../../http/request-headers.js';

/**
 * The caller of an `/admin` endpoint: a valid admin key, always, whatever the open-access mode
 * (docs/api.md, "Admin API"). No key or a wrong one is 401; a valid key that is not an admin key, 403.
 */
export async function adminCaller(context: GatewayContext, services: GatewayServices): Promise<ApiKeyRecord> {
  const key = await services.authenticator.authenticate(nodeRequestHeaders(context.env.incoming), true, { anonymous: false });
  if (key === undefined) throw new GatewayError('authentication_required', 'The admin API needs an admin key.');
  if (!key.admin) throw new GatewayError('permission_denied', 'This API key is not an admin key.');
  return key;
}
