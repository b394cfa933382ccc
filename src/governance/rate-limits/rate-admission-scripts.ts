import { RedisScript } from '../../redis/redis-script.js';

/**
 * Admits one call atomically: reads the key's request and token counts of the current minute and
 * prunes its expired concurrency leases, refuses on the first limit reached, else counts the
 * request and takes a slot. A limit of -1 is no limit.
 *
 * KEYS: requests of the minute, tokens of the minute, calls in flight (a sorted set of call ids
 * scored by the epoch ms their lease ends). ARGV: now, rpm, tpm, concurrency, call id, lease end,
 * how long the minute's counters live (ms).
 * Returns { verdict, requests, tokens }: 0 admitted, 1 requests, 2 tokens, 3 concurrency.
 */
export const admitScript = new RedisScript(
  'switchyardAdmitCall',
  `
local now = tonumber(ARGV[1])
local rpm = tonumber(ARGV[2])
local tpm = tonumber(ARGV[3])
local concurrency = tonumber(ARGV[4])
local requests = tonumber(redis.call('GET', KEYS[1]) or '0')
local tokens = tonumber(redis.call('GET', KEYS[2]) or '0')
if rpm >= 0 and requests >= rpm then return {1, requests, tokens} end
if tpm >= 0 and tokens >= tpm then return {2, requests, tokens} end
if concurrency >= 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= concurrency then return {3, requests, tokens} end
  redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5])
  -- The set outlives its longest lease (relative to our clock: Redis's may differ from ours).
  local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
  redis.call('PEXPIRE', KEYS[3], math.max(1, tonumber(last[2]) - now))
end
requests = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return {0, requests, tokens}
`,
  3,
);

/**
 * Ends one call: frees its slot (if it held one) and charges its tokens to the minute it ends in.
 * KEYS: calls in flight, tokens of the current minute. ARGV: call id, tokens, how long the minute's counters live (ms).
 */
export const finishScript = new RedisScript(
  'switchyardFinishCall',
  `
redis.call('ZREM', KEYS[1], ARGV[1])
local tokens = tonumber(ARGV[2])
if tokens > 0 then
  redis.call('INCRBY', KEYS[2], tokens)
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return 1
`,
  2,
);
