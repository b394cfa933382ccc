import { getJson } from '../api.js';
import type { KeyObject, List } from '../types.js';
import { useLoad } from './use-load.js';

/** How a key is shown where calls and spend are listed: its name, or its id while names are unknown. */
export type KeyNamer = (keyId: string | null | undefined) => string;

/**
 * Key names for pages that list key ids (Requests, Overview, Usage, Video jobs), from
 * `/admin/keys` — read again now and then, so a key made meanwhile gets its name. Operators know
 * their keys by name; the id stays in each cell's title.
 */
export function useKeyNames(): KeyNamer {
  const keys = useLoad(() => getJson<List<KeyObject>>('/admin/keys'), [], 30_000);
  const names = new Map((keys.data?.data ?? []).map((key) => [key.id, key.name]));
  return (keyId) => (keyId === null || keyId === undefined ? '(no key)' : (names.get(keyId) ?? keyId));
}
