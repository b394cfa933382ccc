import type { BudgetMeter } from './budgets/budget-meter.js';
import { InProcessBudgetMeter } from './budgets/in-process-budget-meter.js';
import { SharedBudgetMeter } from './budgets/shared-budget-meter.js';
import type { LimitsConfig, RedisConfig } from '../config/config-schema.js';
import type { Logger } from '../logging/logger.js';
import { closeRedis, connectRedis, openRedis } from '../redis/open-redis.js';
import { RedisOutage } from '../redis/redis-outage.js';
import type { KeySpend } from '../metering/usage-ledger.js';
import type { KeyLimits } from './key-limits.js';
import { InProcessKeyLimits } from './in-process-key-limits.js';
import { InProcessKeyRateLimiter } from './rate-limits/in-process-key-rate-limiter.js';
import { SharedKeyLimits } from './shared-key-limits.js';
import { SharedKeyRateLimiter } from './rate-limits/shared-key-rate-limiter.js';
import { InProcessUpstreamCaps } from './upstream-caps/in-process-upstream-caps.js';
import { SharedUpstreamCaps } from './upstream-caps/shared-upstream-caps.js';
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
  const redis = openRedis(redisConfig, logger);
  if (!(await connectRedis(redis, redisConfig.connect_timeout_ms))) {
    logger.warn({ limitsFailMode: redisConfig.limits_fail_mode, budgetsFailMode: redisConfig.budgets_fail_mode }, 'redis does not answer at start; its fail modes apply until it does');
  }
  const keyPrefix = redisConfig.key_prefix;
  const budgets = new SharedBudgetMeter(redis, { keyPrefix, readSpend, outage: new RedisOutage('budgets', redisConfig.budgets_fail_mode, logger) });
  const rates = new SharedKeyRateLimiter(redis, { keyPrefix, outage: new RedisOutage('rate limits', redisConfig.limits_fail_mode, logger), windowMs });
  const upstreamCaps = new SharedUpstreamCaps(redis, { keyPrefix, outage: new RedisOutage('upstream concurrency caps', redisConfig.limits_fail_mode, logger) });
  const bothOpen = redisConfig.limits_fail_mode === 'open' && redisConfig.budgets_fail_mode === 'open';
  return {
    limits: new SharedKeyLimits(rates, budgets),
    budgets,
    upstreamCaps,
    ...(bothOpen ? {} : { pingRedis: async () => void (await redis.ping()) }),
    close: () => closeRedis(redis),
  };
}
