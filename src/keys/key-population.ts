import type { ApiKeyStore } from './api-key-store.js';
import { keylessCaller } from './keyless-caller.js';

/** How long a count of the keys is trusted before the store is asked again. */
const countLifetimeMs = 5_000;

/**
 * Whether a caller other than a given one can reach the gateway, as the circuit breakers ask it:
 * for a key, whether another key is active (neither revoked nor expired); for keyless calls,
 * whether any key is. Keyless calls never count as another caller beside a key, since the key's
 * holder can make them too. The breakers ask only when one caller's failures alone reach their
 * threshold, so the store is read rarely, and a count a few seconds old is answered at once.
 */
export class KeyPopulation {
  private counted: { readonly activeKeys: number; readonly at: number } | undefined;
  private counting: Promise<number> | undefined;

  constructor(
    private readonly store: Pick<ApiKeyStore, 'list'>,
    private readonly now: () => number = Date.now,
  ) {}

  othersBesides(caller: string): boolean | Promise<boolean> {
    const othersAmong = (activeKeys: number): boolean => activeKeys >= (caller === keylessCaller ? 1 : 2);
    const counted = this.counted;
    if (counted !== undefined && this.now() - counted.at < countLifetimeMs) return othersAmong(counted.activeKeys);
    this.counting ??= this.count().finally(() => (this.counting = undefined));
    return this.counting.then(othersAmong);
  }

  private async count(): Promise<number> {
    const at = this.now();
    const keys = await this.store.list();
    const activeKeys = keys.filter((key) => key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > at)).length;
    this.counted = { activeKeys, at };
    return activeKeys;
  }
}
