import { parseUsdToNano } from '../catalog/pricing/decimal-usd.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyChanges, ApiKeyRecord, ApiKeyScopes } from './api-key.js';
import { endpointFamilies, isEndpointFamily } from './endpoint-family.js';

/**
 * What an operator sets on a key, as the admin API's bodies and the command line's flags give it.
 * Both go through these parsers, so a key created either way is checked the same way; a failure
 * is a 400 naming the field in the API's snake_case (`budget_usd`, `scopes.models`), which the
 * command line turns into its flag name.
 */
export interface KeySettings {
  readonly name: string;
  readonly admin: boolean;
  readonly scopes: ApiKeyScopes;
  readonly budgetNanoUsd: bigint | null;
  readonly dailyBudgetNanoUsd: bigint | null;
  readonly monthlyBudgetNanoUsd: bigint | null;
  readonly rpm: number | null;
  readonly tpm: number | null;
  readonly concurrency: number | null;
  readonly expiresAt: Date | null;
}

/** The catalog's model names as scopes need them: scopes hold public ids, so an alias allows its model. */
export interface ModelNames {
  /** The public id a name (id, alias or legacy alias) stands for; undefined when nothing has it. */
  publicId(name: string): string | undefined;
  /** Public ids, for the message that refuses an unknown one. */
  readonly known: readonly string[];
}

/** Fields of a creation body; a PATCH body takes these but `admin`. */
const creationFields = ['name', 'admin', 'scopes', 'budget_usd', 'daily_budget_usd', 'monthly_budget_usd', 'rpm', 'tpm', 'concurrency', 'expires_at'] as const;
const scopeFields = ['endpoints', 'models'] as const;

/** Limits are stored in 32-bit integer columns. */
const largestLimit = 2_147_483_647;
/** Budgets are stored in 64-bit nano-USD columns. */
const largestBudgetNanoUsd = 9_223_372_036_854_775_807n;
const longestName = 200;

/** Settings for a new key: `name` is required, everything else defaults to "no limit", all scopes, not admin. */
export function parseNewKeySettings(body: Readonly<Record<string, unknown>>, models: ModelNames, now: Date): KeySettings {
  refuseUnknownFields(body, creationFields, '');
  if (body.name === undefined) throw new GatewayError('missing_field', "Missing required parameter: 'name'.", { param: 'name' });
  const admin = body.admin === undefined ? false : parseBoolean(body.admin, 'admin');
  const scopes: ApiKeyScopes = { endpoints: null, models: null, ...(body.scopes === undefined || body.scopes === null ? {} : parseScopes(body.scopes, models)) };
  // Admin keys may call everything (docs/api.md, "Authentication"): a scope on one would say otherwise.
  if (admin && (scopes.endpoints !== null || scopes.models !== null)) {
    throw invalid('scopes', 'admin keys may use every endpoint and model, so they take no scopes');
  }
  return {
    name: parseName(body.name),
    admin,
    scopes,
    budgetNanoUsd: parseOptional(body.budget_usd, 'budget_usd', parseBudget) ?? null,
    dailyBudgetNanoUsd: parseOptional(body.daily_budget_usd, 'daily_budget_usd', parseBudget) ?? null,
    monthlyBudgetNanoUsd: parseOptional(body.monthly_budget_usd, 'monthly_budget_usd', parseBudget) ?? null,
    rpm: parseOptional(body.rpm, 'rpm', parseLimit) ?? null,
    tpm: parseOptional(body.tpm, 'tpm', parseLimit) ?? null,
    concurrency: parseOptional(body.concurrency, 'concurrency', parseLimit) ?? null,
    expiresAt: parseOptional(body.expires_at, 'expires_at', (value, param) => parseExpiry(value, param, now)) ?? null,
  };
}

/** Changes to an existing key: absent fields stay, `null` clears (no limit, all scopes, no expiry). */
export function parseKeyChanges(body: Readonly<Record<string, unknown>>, models: ModelNames, now: Date, key: ApiKeyRecord): ApiKeyChanges {
  if (body.admin !== undefined) throw invalid('admin', 'a key cannot become or stop being an admin key; create a new key instead');
  refuseUnknownFields(body, creationFields, '');
  if (body.scopes !== undefined && body.scopes !== null && key.admin) {
    throw invalid('scopes', 'admin keys may use every endpoint and model, so they take no scopes');
  }
  const changes: { -readonly [Field in keyof ApiKeyChanges]: ApiKeyChanges[Field] } = {};
  if (body.name !== undefined) changes.name = parseName(body.name);
  if (body.scopes !== undefined) changes.scopes = body.scopes === null ? { endpoints: null, models: null } : parseScopes(body.scopes, models);
  if (body.budget_usd !== undefined) changes.budgetNanoUsd = parseOptional(body.budget_usd, 'budget_usd', parseBudget);
  if (body.daily_budget_usd !== undefined) changes.dailyBudgetNanoUsd = parseOptional(body.daily_budget_usd, 'daily_budget_usd', parseBudget);
  if (body.monthly_budget_usd !== undefined) changes.monthlyBudgetNanoUsd = parseOptional(body.monthly_budget_usd, 'monthly_budget_usd', parseBudget);
  if (body.rpm !== undefined) changes.rpm = parseOptional(body.rpm, 'rpm', parseLimit);
  if (body.tpm !== undefined) changes.tpm = parseOptional(body.tpm, 'tpm', parseLimit);
  if (body.concurrency !== undefined) changes.concurrency = parseOptional(body.concurrency, 'concurrency', parseLimit);
  if (body.expires_at !== undefined) changes.expiresAt = parseOptional(body.expires_at, 'expires_at', (value, param) => parseExpiry(value, param, now));
  return changes;
}

/** Undefined stays undefined (not given), null stays null (cleared); anything else is parsed. */
function parseOptional<Parsed>(value: unknown, param: string, parse: (value: unknown, param: string) => Parsed): Parsed | null | undefined {
  if (value === undefined || value === null) return value;
  return parse(value, param);
}

function refuseUnknownFields(body: Readonly<Record<string, unknown>>, known: readonly string[], prefix: string): void {
  for (const field of Object.keys(body)) {
    if (!known.includes(field)) {
      throw new GatewayError('unknown_parameter', `Unknown parameter: '${prefix}${field}'.`, { param: `${prefix}${field}` });
    }
  }
}

function parseName(value: unknown): string {
  if (typeof value !== 'string') throw invalid('name', 'expected a string');
  const name = value.trim();
  if (name.length === 0 || name.length > longestName) throw invalid('name', `expected 1 to ${longestName} characters`);
  return name;
}

function parseBoolean(value: unknown, param: string): boolean {
  if (typeof value !== 'boolean') throw invalid(param, 'expected true or false');
  return value;
}

/** A scopes object; a list it leaves out is unchanged by a PATCH, and everything for a new key. */
function parseScopes(value: unknown, models: ModelNames): Partial<ApiKeyScopes> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('scopes', 'expected an object with endpoints and models');
  const scopes = value as Record<string, unknown>;
  refuseUnknownFields(scopes, scopeFields, 'scopes.');
  const result: { endpoints?: readonly string[] | null; models?: readonly string[] | null } = {};
  if (scopes.endpoints !== undefined) result.endpoints = scopes.endpoints === null ? null : parseEndpoints(scopes.endpoints);
  if (scopes.models !== undefined) result.models = scopes.models === null ? null : parseModels(scopes.models, models);
  return result;
}

function parseStringList(value: unknown, param: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw invalid(param, 'expected a list of strings, or null for all');
  return value as string[];
}

function parseEndpoints(value: unknown): string[] {
  const endpoints = parseStringList(value, 'scopes.endpoints');
  for (const endpoint of endpoints) {
    if (!isEndpointFamily(endpoint)) throw invalid('scopes.endpoints', `unknown family '${endpoint}' (allowed: ${endpointFamilies.join(', ')})`);
  }
  return [...new Set(endpoints)];
}

function parseModels(value: unknown, models: ModelNames): string[] {
  const publicIds = parseStringList(value, 'scopes.models').map((name) => {
    const publicId = models.publicId(name);
    if (publicId === undefined) throw invalid('scopes.models', `unknown model '${name}' (configured: ${models.known.join(', ') || 'none'})`);
    return publicId;
  });
  return [...new Set(publicIds)];
}

/** A decimal string in USD, exact to the nano-dollar; JSON numbers are refused, being binary floats. */
function parseBudget(value: unknown, param: string): bigint {
  if (typeof value !== 'string') throw invalid(param, 'expected a decimal string in USD such as "25" or "12.50"');
  let nano: bigint;
  try {
    nano = parseUsdToNano(value);
  } catch {
    throw invalid(param, `expected a decimal amount in USD such as "25" or "12.50", at most 9 decimals, got '${value}'`);
  }
  if (nano > largestBudgetNanoUsd) throw invalid(param, 'the amount is too large');
  return nano;
}

function parseLimit(value: unknown, param: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > largestLimit) {
    throw invalid(param, `expected a positive whole number up to ${largestLimit}`);
  }
  return value;
}

/**
 * A date (`YYYY-MM-DD`: the key expires at 00:00 UTC that day) or an RFC 3339 time with its
 * offset; it must lie in the future, since an expiry in the past makes a key nobody can use.
 */
function parseExpiry(value: unknown, param: string, now: Date): Date {
  if (typeof value !== 'string') throw invalid(param, 'expected a date YYYY-MM-DD or a time such as 2027-01-31T12:00:00Z');
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value);
  const at = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  if ((!dateOnly && !dateTime) || Number.isNaN(at.getTime()) || (dateOnly && at.toISOString().slice(0, 10) !== value)) {
    throw invalid(param, `expected a date YYYY-MM-DD or a time such as 2027-01-31T12:00:00Z, got '${value}'`);
  }
  if (at.getTime() <= now.getTime()) throw invalid(param, `${value} is not in the future`);
  return at;
}

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('invalid_field', `Invalid value for '${param}': ${detail}.`, { param });
}
