import { RedisScript } from '../../redis/redis-script.js';

/**
 * Takes one slot of a provider's cap atomically: prunes the leases that ended (an instance that
 * died), refuses when the cap is reached, else adds the call.
 * KEYS: the provider's calls in flight (a sorted set of call ids scored by the epoch ms their lease
 * ends). ARGV: now, cap, call id, lease end. Returns 1 when taken, 0 at the cap.
 */
export const takeSlotScript = new RedisScript(
  'switchyardTakeUpstreamSlot',
  `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
-- The set outlives its longest lease (relative to our clock: Redis's may differ from ours).
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - now))
return 1
`,
  1,
);
