import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyRecord, UsageLedger } from '../storage/ports.js';
import type { LedgerWriter } from './ledger-writer.js';

interface MinuteWindow {
  minute: number;
  count: number;
}

/**
 * A key's requests-per-minute limit and spend budget, checked before a call is routed.
 *
 * Both are per process for now: requests are counted in a fixed one-minute window, and spend is
 * what the ledger holds (re-read when this process has written to it, or after a second) plus what
 * this process has yet to write. A budget can therefore be overrun by the calls in flight when it
 * runs out, and by other instances.
 */
export class KeyLimits {
  private readonly windows = new Map<string, MinuteWindow>();
  private readonly spent = new Map<string, { value: bigint; until: number; generation: number }>();

  constructor(
    private readonly ledger: UsageLedger,
    private readonly writer: LedgerWriter,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 (with retry-after) or 402 when the key may not make another call now. */
  async admit(key: ApiKeyRecord | undefined): Promise<void> {
    if (key === undefined) return;
    if (key.rpm !== null) this.countRequest(key.id, key.rpm);
    if (key.budgetNanoUsd !== null && (await this.spentNanoUsd(key.id)) >= key.budgetNanoUsd) {
      throw new GatewayError('budget_exhausted', 'This API key has spent its budget.');
    }
  }

  private countRequest(keyId: string, limit: number): void {
    const minute = Math.floor(this.now() / 60_000);
    const window = this.windows.get(keyId);
    if (window === undefined || window.minute !== minute) {
      this.windows.set(keyId, { minute, count: 1 });
      return;
    }
    if (window.count >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((minute + 1) * 60_000 - this.now()) / 1000));
      throw new GatewayError('rate_limited', `Rate limit of ${limit} requests per minute reached for this API key.`, { retryAfterSeconds });
    }
    window.count += 1;
  }

  private async spentNanoUsd(keyId: string): Promise<bigint> {
    const cached = this.spent.get(keyId);
    const now = this.now();
    if (cached !== undefined && cached.until > now && cached.generation === this.writer.generation) {
      return cached.value + this.writer.pendingNanoUsd(keyId);
    }
    const generation = this.writer.generation;
    const value = await this.ledger.spentNanoUsd(keyId);
    this.spent.set(keyId, { value, until: now + 1_000, generation });
    return value + this.writer.pendingNanoUsd(keyId);
  }
}
