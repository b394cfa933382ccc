import type { ApiKeyStore } from '../storage/ports.js';

/** How long a count of the keys is trusted before the store is asked again. */
const countLifetimeMs = 5_000;

/**
 * Whether more than one caller can reach the gateway: two or more keys that are neither revoked
 * nor expired, or one such key while keyless calls are let in too (`open_access: always`; keyless
 * calls count as one caller). The circuit breakers ask it only when a run of failures came from a
 * single caller, so the store is read rarely, and a count a few seconds old is answered at once.
 */
export class KeyPopulation {
  private counted: { readonly several: boolean; readonly at: number } | undefined;
  private counting: Promise<boolean> | undefined;

  constructor(
    private readonly store: Pick<ApiKeyStore, 'list'>,
    private readonly keylessCallsAllowed: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  severalCallers(): boolean | Promise<boolean> {
    const counted = this.counted;
    if (counted !== undefined && this.now() - counted.at < countLifetimeMs) return counted.several;
    this.counting ??= this.count().finally(() => (this.counting = undefined));
    return this.counting;
  }

  private async count(): Promise<boolean> {
    const at = this.now();
    const keys = await this.store.list();
    const active = keys.filter((key) => key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > at)).length;
    const several = active + (this.keylessCallsAllowed ? 1 : 0) >= 2;
    this.counted = { several, at };
    return several;
  }
}
