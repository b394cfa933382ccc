/**
 * A value fetched at most once per `ttlMs`, however often it is asked for: a scrape every second
 * from several scrapers costs the database one query per period. A failed fetch is not cached.
 */
export class CachedValue<Value> {
  private cached: { readonly at: number; readonly value: Promise<Value> } | undefined;

  constructor(
    private readonly fetch: () => Promise<Value>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<Value> {
    const now = this.now();
    if (this.cached !== undefined && now - this.cached.at < this.ttlMs) return this.cached.value;
    const value = this.fetch();
    const entry = { at: now, value };
    this.cached = entry;
    value.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return value;
  }
}
