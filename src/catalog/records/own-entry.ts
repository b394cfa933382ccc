/**
 * The entry a table of built-in records holds under `name`, by its own keys only: a model the
 * operator calls `toString` or `constructor` is not a built-in record, whatever objects inherit.
 */
export function ownEntry<Entry>(table: Readonly<Record<string, Entry>>, name: string): Entry | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
