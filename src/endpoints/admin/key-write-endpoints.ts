import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../keys/api-key-secret.js';
import { apiKeyRecord } from '../../keys/api-key-record.js';
import { catalogModelNames } from '../../keys/catalog-model-names.js';
import { keyAuditEntry } from '../../keys/key-audit.js';
import { parseKeyChanges, parseNewKeySettings } from '../../keys/key-settings.js';
import { keySettingsWire } from '../../keys/key-settings-wire.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminCaller } from './admin-caller.js';
import { adminBody, adminJson } from './admin-answer.js';
import { describeAdminKey } from '../../keys/key-object.js';
import { keyFromPath } from './admin-key-lookup.js';

/** `POST /admin/keys`: 201 with the key object and its secret `key`, shown this once. */
export async function handleCreateKey(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const caller = await adminCaller(context, services);
    const body = await adminBody(context, services);
    const now = new Date();
    const settings = parseNewKeySettings(body, catalogModelNames(services.catalog.current().catalog), now);
    const secret = mintApiKeySecret();
    const record = apiKeyRecord({ ...settings, id: mintKeyId(), prefix: displayPrefix(secret), hash: hashApiKey(secret), createdAt: now });
    await services.storage.keys.insert(record);
    await services.storage.audit.append(keyAuditEntry('key.create', caller.id, record.id, keySettingsWire(settings), now));
    return adminJson({ ...(await describeAdminKey(services.storage, record, now)), key: secret }, requestId, 201);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** `PATCH /admin/keys/{id}`: the fields sent change, `null` clears; in force here at once, elsewhere within seconds. */
export async function handleUpdateKey(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const caller = await adminCaller(context, services);
    const key = await keyFromPath(context, services);
    const body = await adminBody(context, services);
    const now = new Date();
    const changes = parseKeyChanges(body, catalogModelNames(services.catalog.current().catalog), now, key);
    if (Object.keys(changes).length === 0) return adminJson(await describeAdminKey(services.storage, key, now), requestId);
    const updated = (await services.storage.keys.update(key.id, changes)) ?? key;
    services.authenticator.forgetCachedKeys();
    await services.storage.audit.append(keyAuditEntry('key.update', caller.id, key.id, keySettingsWire(changes), now));
    return adminJson(await describeAdminKey(services.storage, updated, now), requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** `DELETE /admin/keys/{id}`: revokes the key (kept, so its ledger entries still name it); revoking again changes nothing. */
export async function handleRevokeKey(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const caller = await adminCaller(context, services);
    const key = await keyFromPath(context, services);
    const now = new Date();
    if (await services.storage.keys.revoke(key.id, now)) {
      services.authenticator.forgetCachedKeys();
      await services.storage.audit.append(keyAuditEntry('key.revoke', caller.id, key.id, {}, now));
    }
    const revoked = (await services.storage.keys.findById(key.id)) ?? key;
    return adminJson(await describeAdminKey(services.storage, revoked, now), requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
