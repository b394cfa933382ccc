import type { GatewayConfig } from './config-schema.js';

/**
 * What a reload puts in force. Everything else (the listening address, the database, redis, the
 * log format, server settings, keys added later) is wired into the running process at start.
 */
const reloadedPaths: readonly string[] = ['providers', 'models', 'routing', 'log.level'];

/**
 * The fields, as dotted paths, that differ between the running and the reloaded configuration but
 * only take effect after a restart, so the operator can be told instead of wondering.
 */
export function restartOnlyChanges(running: GatewayConfig, reloaded: GatewayConfig): string[] {
  return changedPaths(running, reloaded, '').filter((path) => !reloadedPaths.some((reloadedPath) => path === reloadedPath || path.startsWith(`${reloadedPath}.`)));
}

function changedPaths(before: unknown, after: unknown, path: string): string[] {
  if (isRecord(before) && isRecord(after) && !reloadedPaths.includes(path)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => changedPaths(before[key], after[key], path === '' ? key : `${path}.${key}`));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [path];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
