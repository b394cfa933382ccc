import type { LimitsConfig, RedisConfig } from '../config/config-schema.js';
import type { Logger } from '../logging/logger.js';
import type { KeySpend } from '../metering/usage-ledger.js';
import type { BudgetMeter } from './budgets/budget-meter.js';
import { InProcessBudgetMeter } from './budgets/in-process-budget-meter.js';
import type { KeyLimits } from './key-limits.js';
import { InProcessKeyLimits } from './in-process-key-limits.js';
import { InProcessKeyRateLimiter } from './rate-limits/in-process-key-rate-limiter.js';
import type { openSharedGovernance } from './open-shared-governance.js';
import { InProcessUpstreamCaps } from './upstream-caps/in-process-upstream-caps.js';
import type { UpstreamCaps } from './upstream-caps/upstream-caps.js';

export interface Governance {
  readonly limits: KeyLimits;
  readonly budgets: BudgetMeter;
  /** Providers' `max_concurrency`: shared through the same Redis, with the rate limits' fail mode. */
  readonly upstreamCaps: UpstreamCaps;
  /**
   * For `GET /ready`: answers while the Redis the limits need answers. Absent without Redis, and
   * when both fail modes are open — an instance that serves without Redis by choice stays ready,
   * rather than every instance leaving the load balancer together when the one Redis goes.
   */
  readonly pingRedis?: () => Promise<void>;
  close(): Promise<void>;
}

/**
 * The rate limits, budgets and upstream concurrency caps of this gateway: held in this process, or
 * shared by every instance through Redis when `redis` is configured
 * (docs/api.md, "Limits and budgets"). A Redis that does not answer at start does not stop the
 * gateway: its fail modes apply until it answers.
 */
export async function openGovernance(
  redisConfig: RedisConfig | undefined,
  limitsConfig: LimitsConfig,
  readSpend: (keyId: string, at: Date) => Promise<KeySpend>,
  logger: Logger,
): Promise<Governance> {
  const windowMs = limitsConfig.window_seconds * 1000;
  if (redisConfig === undefined) {
    const budgets = new InProcessBudgetMeter(readSpend);
    return { limits: new InProcessKeyLimits(new InProcessKeyRateLimiter(Date.now, windowMs), budgets), budgets, upstreamCaps: new InProcessUpstreamCaps(), close: async () => undefined };
  }
  const openShared = await loadSharedGovernance();
  return openShared(redisConfig, windowMs, readSpend, logger);
}

/**
 * The Redis-backed parts, loaded only when `redis` is configured: ioredis and its dependencies are
 * a good part of a start that never uses them.
 */
function loadSharedGovernance(): Promise<typeof openSharedGovernance> {
  return import('./open-shared-governance.js').then((module) => module.openSharedGovernance);
}
