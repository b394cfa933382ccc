import { GatewayError } from '../../errors/gateway-error.js';
import { displayPrefix, hashApiKey, mintApiKeySecret } from '../../keys/api-key-secret.js';
import { keyAuditEntry } from '../../keys/key-audit.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminCaller } from './admin-caller.js';
import { adminBody, adminJson } from './admin-answer.js';
import { describeAdminKey } from '../../keys/key-object.js';
import { keyFromPath } from './admin-key-lookup.js';

/** A year: a longer grace period is a second key, better made as one. */
const longestGraceSeconds = 366 * 86_400;

function graceSeconds(body: Readonly<Record<string, unknown>>, configured: number): number {
  for (const field of Object.keys(body)) {
    if (field !== 'grace_seconds') throw new GatewayError('unknown_parameter', `Unknown parameter: '${field}'.`, { param: field });
  }
  const value = body.grace_seconds;
  if (value === undefined) return configured;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > longestGraceSeconds) {
    throw new GatewayError('invalid_field', `Invalid value for 'grace_seconds': expected a whole number of seconds from 0 to ${longestGraceSeconds}.`, { param: 'grace_seconds' });
  }
  return value;
}

/**
 * `POST /admin/keys/{id}/rotate`: a new secret, shown this once; the current one keeps working for
 * `grace_seconds` (the config's `keys.rotation_grace_seconds` by default; 0 ends it at once), so
 * clients can move over without an outage. A secret older than the current one stops at once.
 */
export async function handleRotateKey(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const caller = await adminCaller(context, services);
    const key = await keyFromPath(context, services);
    const grace = graceSeconds(await adminBody(context, services, { optional: true }), services.config.keys.rotation_grace_seconds);
    if (key.revokedAt !== null) throw new GatewayError('conflict', `The API key '${key.id}' is revoked and cannot be rotated.`, { param: 'id' });
    const now = new Date();
    const previousValidUntil = new Date(now.getTime() + grace * 1000);
    const secret = mintApiKeySecret();
    const rotated = await services.storage.keys.rotate(key.id, { prefix: displayPrefix(secret), hash: hashApiKey(secret) }, previousValidUntil);
    // Revoked between the read and the rotation.
    if (rotated === undefined) throw new GatewayError('conflict', `The API key '${key.id}' is revoked and cannot be rotated.`, { param: 'id' });
    services.authenticator.forgetCachedKeys();
    const details = { grace_seconds: grace, previous_valid_until: previousValidUntil.toISOString(), prefix: rotated.prefix };
    await services.storage.audit.append(keyAuditEntry('key.rotate', caller.id, key.id, details, now));
    return adminJson({ ...(await describeAdminKey(services.storage, rotated, now)), key: secret, previous_key_expires_at: previousValidUntil.toISOString() }, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
