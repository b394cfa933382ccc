import type { GatewayConfig } from '../config/config-schema.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { GatewayError } from '../errors/gateway-error.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../keys/api-key-secret.js';
import { apiKeyRecord } from '../keys/api-key-record.js';
import { catalogModelNames } from '../keys/catalog-model-names.js';
import { keyAuditEntry } from '../keys/key-audit.js';
import { describeAdminKey, keyStatus } from '../keys/key-object.js';
import { parseNewKeySettings } from '../keys/key-settings.js';
import { keySettingsWire, usdOrNull } from '../keys/key-settings-wire.js';
import { openStorage } from '../storage/open-storage.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { Storage } from '../storage/ports.js';
import { UsageError } from './main.js';

export interface KeysOptions {
  readonly name?: string | undefined;
  readonly models?: string | undefined;
  readonly endpoints?: string | undefined;
  readonly 'budget-usd'?: string | undefined;
  readonly 'daily-budget-usd'?: string | undefined;
  readonly 'monthly-budget-usd'?: string | undefined;
  readonly rpm?: string | undefined;
  readonly tpm?: string | undefined;
  readonly concurrency?: string | undefined;
  readonly expires?: string | undefined;
  readonly admin?: boolean | undefined;
  readonly json?: boolean | undefined;
}

/**
 * `switchyard keys create|list|revoke`: the key is printed once at creation and stored only as a
 * hash. Creations and revocations are written to the audit log with no actor (the command line).
 */
export async function runKeysCommand(config: GatewayConfig, args: readonly string[], options: KeysOptions): Promise<number> {
  const [action, id] = args;
  if (action !== 'create' && action !== 'list' && action !== 'revoke') throw new UsageError(`keys: expected create, list or revoke, got '${action ?? ''}'`);
  if (action === 'revoke' && id === undefined) throw new UsageError('keys revoke needs the key id');
  const storage = await openStorage(config.database.url);
  try {
    await storage.migrate();
    if (action === 'create') return await createKey(config, storage, options);
    if (action === 'list') return await listKeys(storage, options);
    const now = new Date();
    if (!(await storage.keys.revoke(id as string, now))) {
      console.error(`switchyard: no active key with id ${id}`);
      return 1;
    }
    await storage.audit.append(keyAuditEntry('key.revoke', null, id as string, {}, now));
    console.log(`revoked ${id}`);
    return 0;
  } finally {
    await storage.close();
  }
}

async function createKey(config: GatewayConfig, storage: Storage, options: KeysOptions): Promise<number> {
  const now = new Date();
  const settings = withFlagNames(() => parseNewKeySettings(settingsBody(options), catalogModelNames(new ModelCatalog(config)), now));
  const secret = mintApiKeySecret();
  const record = apiKeyRecord({ ...settings, id: mintKeyId(), prefix: displayPrefix(secret), hash: hashApiKey(secret), createdAt: now });
  await storage.keys.insert(record);
  await storage.audit.append(keyAuditEntry('key.create', null, record.id, keySettingsWire(settings), now));
  if (options.json) console.log(JSON.stringify({ id: record.id, key: secret, ...keySettingsWire(settings) }));
  else console.log(`created ${record.admin ? 'admin ' : ''}key ${record.id} (${record.name})\n\n  ${secret}\n\nStore it now: it is not shown again.`);
  return 0;
}

async function listKeys(storage: Storage, options: KeysOptions): Promise<number> {
  const keys = await storage.keys.list();
  const now = new Date();
  if (options.json) console.log(JSON.stringify(await Promise.all(keys.map((key) => describeAdminKey(storage, key, now)))));
  else for (const key of keys) console.log(formatKeyLine(key, now));
  return 0;
}

/** The flags as the admin API's creation body, so both are checked by the same parser. */
function settingsBody(options: KeysOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.admin) body.admin = true;
  const scopes: Record<string, unknown> = {};
  if (options.models !== undefined) scopes.models = splitList(options.models);
  if (options.endpoints !== undefined) scopes.endpoints = splitList(options.endpoints);
  if (Object.keys(scopes).length > 0) body.scopes = scopes;
  for (const flag of ['budget-usd', 'daily-budget-usd', 'monthly-budget-usd'] as const) {
    if (options[flag] !== undefined) body[flag.replaceAll('-', '_')] = options[flag];
  }
  for (const flag of ['rpm', 'tpm', 'concurrency'] as const) {
    const value = options[flag];
    // Left as text when not a whole number, so the parser refuses it with its own message.
    if (value !== undefined) body[flag] = /^\d+$/.test(value) ? Number(value) : value;
  }
  if (options.expires !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(options.expires)) throw new UsageError(`--expires: expected a date YYYY-MM-DD, got '${options.expires}'`);
    body.expires_at = options.expires;
  }
  return body;
}

const flagOfParam: Readonly<Record<string, string>> = { 'scopes.models': '--models', 'scopes.endpoints': '--endpoints', scopes: '--models/--endpoints', expires_at: '--expires' };

/** A refused setting, reported under the flag that gave it. */
function withFlagNames<Result>(parse: () => Result): Result {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof GatewayError) || error.param === undefined) throw error;
    const flag = flagOfParam[error.param] ?? `--${error.param.replaceAll('_', '-')}`;
    const detail = error.message.replace(/^Invalid value for '[^']*': /, '').replace(/\.$/, '');
    throw new UsageError(`${flag}: ${detail}`);
  }
}

function splitList(value: string): string[] {
  return value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
}

function formatKeyLine(key: ApiKeyRecord, now: Date): string {
  const status = keyStatus(key, now);
  const state = status === 'revoked' ? `revoked ${key.revokedAt?.toISOString()}` : status;
  const parts = [key.id, `${key.prefix}…`, key.name, key.admin ? `${state} admin` : state];
  if (!key.admin) parts.push(`endpoints=${key.scopes.endpoints?.join(',') ?? 'all'} models=${key.scopes.models?.join(',') ?? 'all'}`);
  const limits = [['rpm', key.rpm], ['tpm', key.tpm], ['concurrency', key.concurrency]] as const;
  for (const [name, value] of limits) if (value !== null) parts.push(`${name}=${value}`);
  const budgets = [['budget_usd', key.budgetNanoUsd], ['daily_budget_usd', key.dailyBudgetNanoUsd], ['monthly_budget_usd', key.monthlyBudgetNanoUsd]] as const;
  for (const [name, value] of budgets) if (value !== null) parts.push(`${name}=${usdOrNull(value)}`);
  if (key.expiresAt !== null) parts.push(`expires=${key.expiresAt.toISOString()}`);
  parts.push(`last_used=${key.lastUsedAt?.toISOString() ?? 'never'}`);
  return parts.join('  ');
}

export function nanoToDecimal(nano: bigint): string {
  const negative = nano < 0n;
  const absolute = negative ? -nano : nano;
  const whole = absolute / 1_000_000_000n;
  const fraction = (absolute % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
