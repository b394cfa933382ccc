import type { Redis } from 'ioredis';
import type { RedisOutage } from './redis-outage.js';
import { RedisScript } from './redis-script.js';

/**
 * Extends a running call's lease, only while it still holds its slot (a lease already pruned is
 * not taken back behind the limit's back). KEYS: calls in flight. ARGV: now, call id, new lease end.
 */
export const renewScript = new RedisScript(
  'switchyardRenewCall',
  `
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[2])
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - tonumber(ARGV[1])))
end
return 1
`,
  1,
);

/**
 * Renews a call's lease in a sorted set of calls in flight every third of the lease, for as long
 * as the call runs (clear the timer when it ends): a slot held by an instance that died lapses
 * with its lease, while a live call's never does.
 */
export function renewLeaseEvery(redis: Redis, inFlightKey: string, callId: string, lease: { readonly ms: number; readonly now: () => number; readonly outage: RedisOutage }): NodeJS.Timeout {
  const timer = setInterval(() => {
    const now = lease.now();
    renewScript.run(redis, [inFlightKey], [now, callId, now + lease.ms]).catch((error: unknown) => lease.outage.failedQuietly(error));
  }, lease.ms / 3);
  // A call's lease must never keep a closing gateway alive.
  timer.unref();
  return timer;
}
