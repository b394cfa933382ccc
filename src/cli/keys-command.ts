import type { GatewayConfig } from '../config/config-schema.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../keys/api-key-secret.js';
import { endpointFamilies, isEndpointFamily } from '../keys/endpoint-family.js';
import { parseUsdToNano } from '../catalog/pricing/decimal-usd.js';
import { openStorage } from '../storage/open-storage.js';
import type { ApiKeyRecord } from '../storage/ports.js';
import { UsageError } from './main.js';
import { apiKeyRecord } from '../keys/api-key-record.js';

interface KeysOptions {
  readonly name?: string | undefined;
  readonly models?: string | undefined;
  readonly endpoints?: string | undefined;
  readonly 'budget-usd'?: string | undefined;
  readonly rpm?: string | undefined;
  readonly json?: boolean | undefined;
}

/** `switchyard keys create|list|revoke`: the key is printed once at creation and stored only as a hash. */
export async function runKeysCommand(config: GatewayConfig, args: readonly string[], options: KeysOptions): Promise<number> {
  const [action, id] = args;
  const storage = await openStorage(config.database.url);
  try {
    await storage.migrate();
    if (action === 'create') {
      const { record, secret } = buildKey(config, options);
      await storage.keys.insert(record);
      if (options.json) console.log(JSON.stringify({ id: record.id, key: secret, name: record.name, scopes: record.scopes }));
      else console.log(`created key ${record.id} (${record.name})\n\n  ${secret}\n\nStore it now: it is not shown again.`);
      return 0;
    }
    if (action === 'list') {
      const keys = await storage.keys.list();
      if (options.json) console.log(JSON.stringify(keys.map(describeKey)));
      else for (const key of keys) console.log(formatKeyLine(key));
      return 0;
    }
    if (action === 'revoke') {
      if (id === undefined) throw new UsageError('keys revoke needs the key id');
      const revoked = await storage.keys.revoke(id, new Date());
      if (!revoked) {
        console.error(`switchyard: no active key with id ${id}`);
        return 1;
      }
      console.log(`revoked ${id}`);
      return 0;
    }
    throw new UsageError(`keys: expected create, list or revoke, got '${action ?? ''}'`);
  } finally {
    await storage.close();
  }
}

function buildKey(config: GatewayConfig, options: KeysOptions): { record: ApiKeyRecord; secret: string } {
  if (!options.name) throw new UsageError('keys create needs --name NAME');
  const models = splitList(options.models);
  const known = new Set(config.models.flatMap((model) => [model.id, ...model.aliases]));
  for (const model of models ?? []) {
    if (!known.has(model)) throw new UsageError(`--models: unknown model '${model}' (configured: ${[...known].join(', ') || 'none'})`);
  }
  const endpoints = splitList(options.endpoints);
  for (const endpoint of endpoints ?? []) {
    if (!isEndpointFamily(endpoint)) throw new UsageError(`--endpoints: unknown family '${endpoint}' (allowed: ${endpointFamilies.join(', ')})`);
  }
  const secret = mintApiKeySecret();
  const record = apiKeyRecord({
    id: mintKeyId(),
    name: options.name,
    prefix: displayPrefix(secret),
    hash: hashApiKey(secret),
    scopes: { endpoints, models: models === null ? null : canonicalModelIds(config, models) },
    budgetNanoUsd: options['budget-usd'] === undefined ? null : parseBudget(options['budget-usd']),
    rpm: options.rpm === undefined ? null : parsePositiveInteger('--rpm', options.rpm),
    createdAt: new Date(),
  });
  return { record, secret };
}

/** Scopes hold public ids, so an alias given on the command line allows its model. */
function canonicalModelIds(config: GatewayConfig, names: readonly string[]): string[] {
  return [...new Set(names.map((name) => config.models.find((model) => model.id === name || model.aliases.includes(name))?.id ?? name))];
}

function parseBudget(value: string): bigint {
  try {
    return parseUsdToNano(value);
  } catch {
    throw new UsageError(`--budget-usd: expected a decimal amount such as 25 or 12.50, got '${value}'`);
  }
}

function parsePositiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new UsageError(`${flag}: expected a positive whole number, got '${value}'`);
  return number;
}

function splitList(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  return value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
}

function describeKey(key: ApiKeyRecord): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    budget_usd: key.budgetNanoUsd === null ? null : nanoToDecimal(key.budgetNanoUsd),
    rpm: key.rpm,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

function formatKeyLine(key: ApiKeyRecord): string {
  const state = key.revokedAt === null ? 'active' : `revoked ${key.revokedAt.toISOString()}`;
  const scopes = `endpoints=${key.scopes.endpoints?.join(',') ?? 'all'} models=${key.scopes.models?.join(',') ?? 'all'}`;
  return `${key.id}  ${key.prefix}…  ${key.name}  ${state}  ${scopes}`;
}

export function nanoToDecimal(nano: bigint): string {
  const negative = nano < 0n;
  const absolute = negative ? -nano : nano;
  const whole = absolute / 1_000_000_000n;
  const fraction = (absolute % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
