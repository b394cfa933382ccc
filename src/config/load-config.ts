import { readFileSync } from 'node:fs';
import { parseYaml } from './parse-yaml.js';
import type { z } from 'zod';
import { configSchema, type GatewayConfig } from './config-schema.js';
import { defaultConfig } from './default-config.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A configuration problem, with the path of the offending field in its message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface LoadOptions {
  /** Path of the YAML file; falls back to SWITCHYARD_CONFIG, then to the built-in defaults. */
  readonly file?: string;
  readonly port?: number;
  readonly environment: Environment;
}

/**
 * Reads, substitutes, overrides and validates the configuration. This is the only place where the
 * process environment is consulted (callers pass `process.env` in).
 */
export function loadConfig(options: LoadOptions): GatewayConfig {
  const environment = options.environment;
  const file = configFilePath(options);
  const raw = file === undefined ? defaultConfig(environment) : readConfigFile(file, environment);
  refuseReservedNames(raw, [], file);
  applyEnvironmentOverrides(raw, environment);
  if (options.port !== undefined) setPath(raw, ['server', 'port'], options.port);
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, file));
  checkReferences(parsed.data, file);
  return parsed.data;
}

/** The file `loadConfig` reads with these options, or undefined when it runs on the defaults. */
export function configFilePath(options: LoadOptions): string | undefined {
  return options.file ?? options.environment.SWITCHYARD_CONFIG;
}

function readConfigFile(file: string, environment: Environment): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid YAML: ${(error as Error).message}`);
  }
  if (document === null || document === undefined) return {};
  if (typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigError(`config file ${file} must hold a mapping at the top level`);
  }
  return substituteEnvironment(document, environment, [], file) as Record<string, unknown>;
}

/** Replaces `${NAME}` in every string value; an unset variable is an error naming the field. */
function substituteEnvironment(value: unknown, environment: Environment, path: readonly (string | number)[], file: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
      const replacement = environment[name];
      if (replacement === undefined) {
        throw new ConfigError(`${where(file)}${formatPath(path)}: environment variable ${name} is not set`);
      }
      return replacement;
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => substituteEnvironment(item, environment, [...path, index], file));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteEnvironment(item, environment, [...path, key], file)]),
    );
  }
  return value;
}

/**
 * `__proto__` names no field and cannot be a provider's or a price's name: parsed into an object it
 * would replace that object's prototype instead of adding an entry, and the entry would vanish.
 */
function refuseReservedNames(value: unknown, path: readonly (string | number)[], file: string | undefined): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => refuseReservedNames(item, [...path, index], file));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    if (key === '__proto__') throw new ConfigError(`${where(file)}${formatPath([...path, key])}: "__proto__" cannot be used as a name; choose another`);
    refuseReservedNames(item, [...path, key], file);
  }
}

function applyEnvironmentOverrides(raw: Record<string, unknown>, environment: Environment): void {
  if (environment.DATABASE_URL) setPath(raw, ['database', 'url'], environment.DATABASE_URL);
  if (environment.REDIS_URL) setPath(raw, ['redis', 'url'], environment.REDIS_URL);
  if (environment.SWITCHYARD_LOG_FORMAT) setPath(raw, ['log', 'format'], environment.SWITCHYARD_LOG_FORMAT);
  if (environment.PORT) {
    const port = Number(environment.PORT);
    if (!Number.isInteger(port)) throw new ConfigError(`PORT: expected a whole number, got "${environment.PORT}"`);
    setPath(raw, ['server', 'port'], port);
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}

function checkReferences(config: GatewayConfig, file: string | undefined): void {
  const seen = new Map<string, string>();
  config.models.forEach((model, modelIndex) => {
    const legacyIds = model.legacy_aliases.map((legacy) => (typeof legacy === 'string' ? legacy : legacy.id));
    for (const name of [model.id, ...model.aliases, ...legacyIds]) {
      const previous = seen.get(name);
      if (previous !== undefined) {
        throw new ConfigError(`${where(file)}models[${modelIndex}]: "${name}" is already used by ${previous}`);
      }
      seen.set(name, `models[${modelIndex}] (${model.id})`);
    }
    model.routes.forEach((route, routeIndex) => {
      // Own names only: `constructor` or `toString` is not a provider unless the file configures one.
      if (!Object.hasOwn(config.providers, route.provider)) {
        const known = Object.keys(config.providers).join(', ') || 'none';
        throw new ConfigError(
          `${where(file)}models[${modelIndex}].routes[${routeIndex}].provider: unknown provider "${route.provider}" (configured: ${known})`,
        );
      }
    });
  });
}

function describeIssues(error: z.ZodError, file: string | undefined): string {
  const lines = error.issues.flatMap(explainIssue).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  // One line, however many problems: it is printed as the one line a failed start shows.
  return `${where(file)}invalid configuration: ${lines.join('; ')}`;
}

/**
 * A value that may take one of several shapes (a price object or a list of them) fails as a whole;
 * the useful message is the one from the shape the value has, not "expected array".
 */
function explainIssue(issue: z.core.$ZodIssue): { path: readonly PropertyKey[]; message: string }[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path: issue.path, message: issue.message }];
  const branches = issue.errors.filter((branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0));
  if (branches.length !== 1) return [{ path: issue.path, message: issue.message }];
  return (branches[0] as z.core.$ZodIssue[]).flatMap((inner) => explainIssue({ ...inner, path: [...issue.path, ...inner.path] }));
}

function where(file: string | undefined): string {
  return file === undefined ? '' : `${file}: `;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}
