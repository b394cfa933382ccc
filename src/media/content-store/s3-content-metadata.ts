import type { PutOptions } from './content-store.js';

/** Kept as user metadata (`x-amz-meta-expires-at`), so every instance's sweeper can read it. */
const expiresAtField = 'expires-at';

export function metadataFor(options: PutOptions): Record<string, string> {
  return options.expiresAt === undefined ? {} : { [expiresAtField]: options.expiresAt.toISOString() };
}

/** The expiry kept with an object; undefined when it has none or it cannot be read. */
export function expiresAtOf(metadata: Record<string, string> | undefined): Date | undefined {
  const written = metadata?.[expiresAtField];
  if (written === undefined) return undefined;
  const expiresAt = new Date(written);
  return Number.isNaN(expiresAt.getTime()) ? undefined : expiresAt;
}
