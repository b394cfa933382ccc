/**
 * Caps how many distinct values one label takes. Label values come from the catalog and the
 * configuration, never from clients, so the cap is only a guard: should something unexpected reach
 * a label, the series count still stops growing, and the overflow shows as `other`.
 */
export class BoundedLabelValues {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  /** The value itself while fewer than `limit` distinct values were seen (or it is one of them), else `other`. */
  value(candidate: string): string {
    if (this.seen.has(candidate)) return candidate;
    if (this.seen.size >= this.limit) return overflowLabelValue;
    this.seen.add(candidate);
    return candidate;
  }
}

export const overflowLabelValue = 'other';
