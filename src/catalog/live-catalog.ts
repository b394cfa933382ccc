import type { CatalogSnapshot } from './catalog-snapshot.js';

/**
 * The catalog in force now. A reload swaps the whole snapshot at once, so no caller ever sees
 * models from one configuration with routing settings from another; callers that already hold
 * a snapshot keep it.
 */
export class LiveCatalog {
  private snapshot: CatalogSnapshot;

  constructor(initial: CatalogSnapshot) {
    this.snapshot = initial;
  }

  /** Take this once at the start of a call and use it to the end. */
  current(): CatalogSnapshot {
    return this.snapshot;
  }

  /** Puts `next` in force for calls that start from now on; returns the one it replaced. */
  replace(next: CatalogSnapshot): CatalogSnapshot {
    const previous = this.snapshot;
    this.snapshot = next;
    return previous;
  }
}
