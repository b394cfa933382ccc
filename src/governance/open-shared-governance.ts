import type { RedisConfig } from '../config/config-schema.js';
import type { Logger } from '../logging/logger.js';
import type { KeySpend } from '../metering/usage-ledger.js';
import { closeRedis, connectRedis, openRedis } from '../redis/open-redis.js';
import { RedisOutage } from '../redis/redis-outage.js';
import { SharedBudgetMeter } from './budgets/shared-budget-meter.js';
import type { Governance } from './open-governance.js';
import { SharedKeyRateLimiter } from './rate-limits/shared-key-rate-limiter.js';
import { SharedKeyLimits } from './shared-key-limits.js';
import { SharedUpstreamCaps } from './upstream-caps/shared-upstream-caps.js';

/**
 * The rate limits, budgets and upstream concurrency caps shared by every instance through Redis. A
 * Redis that does not answer at start does not stop the gateway: its fail modes apply until it
 * answers.
 */
export async function openSharedGovernance(
  redisConfig: RedisConfig,
  windowMs: number,
  readSpend: (keyId: string, at: Date) => Promise<KeySpend>,
  logger: Logger,
): Promise<Governance> {
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
