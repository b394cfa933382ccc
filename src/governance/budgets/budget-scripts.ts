import { RedisScript } from '../../redis/redis-script.js';

/*
 * One key's budget state in Redis (every key name carries the API key id as a Cluster hash tag):
 * - spend: a hash { total, month_label, month, day_label, day, reserved } — the running totals
 *   seeded from the ledger, the spend of the newest UTC month and day seen, and the sum of the
 *   reservations in flight;
 * - reservations: a sorted set of request ids scored by the epoch ms their reservation lapses;
 * - amounts: a hash request id → reserved nano-USD;
 * - settled:<request id>: a short-lived marker that makes a settlement count once.
 *
 * Amounts are integer nano-USD strings. Every write is HINCRBY on those strings, exact to 2^63;
 * only the budget comparison converts to Lua numbers (doubles), which are exact below 2^53
 * nano-USD (about $9M) — beyond that a comparison may be off by a few nano-USD, never a write.
 */
const helpers = `
local function drop_reservation(spend, reservations, amounts, id)
  local amount = redis.call('HGET', amounts, id)
  if amount then
    redis.call('HDEL', amounts, id)
    if redis.call('EXISTS', spend) == 1 then redis.call('HINCRBY', spend, 'reserved', '-' .. amount) end
  end
  redis.call('ZREM', reservations, id)
end
local function period_spend(values, label_index, label)
  if values[label_index] == label then return values[label_index + 1] or '0' end
  return '0'
end
`;

/**
 * Reserves a call's worst case if it fits every budget beside spend and reservations in flight.
 * KEYS: spend, reservations, amounts. ARGV: now, request id, worst, lapses at, month, day,
 * budget, monthly budget, daily budget ('' for none), how long the key's state lives (ms).
 * Returns {'seed'} when the key has no totals here yet, {'over', kind, spent, reserved}, or {'ok'}.
 */
export const reserveScript = new RedisScript(
  'switchyardReserveBudget',
  `${helpers}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'seed'} end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])) do
  drop_reservation(KEYS[1], KEYS[2], KEYS[3], id)
end
-- A request reserving again replaces its earlier reservation.
drop_reservation(KEYS[1], KEYS[2], KEYS[3], ARGV[2])
local values = redis.call('HMGET', KEYS[1], 'total', 'reserved', 'month_label', 'month', 'day_label', 'day')
local reserved = values[2] or '0'
local committed = tonumber(reserved) + tonumber(ARGV[3])
local checks = {
  {'absolute', ARGV[7], values[1] or '0'},
  {'monthly', ARGV[8], period_spend(values, 3, ARGV[5])},
  {'daily', ARGV[9], period_spend(values, 5, ARGV[6])},
}
for _, check in ipairs(checks) do
  if check[2] ~= '' and tonumber(check[3]) + committed > tonumber(check[2]) then
    return {'over', check[1], check[3], reserved}
  end
end
redis.call('HINCRBY', KEYS[1], 'reserved', ARGV[3])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[10]) end
return {'ok'}
`,
  3,
);

/**
 * Writes a key's totals read from the ledger, unless another instance already did (the first
 * writer wins, so instances seeding at once agree). KEYS: spend. ARGV: total, month label,
 * month, day label, day, how long the key's state lives (ms).
 */
export const seedScript = new RedisScript(
  'switchyardSeedBudget',
  `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'total', ARGV[1], 'month_label', ARGV[2], 'month', ARGV[3], 'day_label', ARGV[4], 'day', ARGV[5], 'reserved', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`,
  1,
);

/**
 * A ledger entry was recorded: ends its reservation and adds its cost to the key's totals, once
 * per request id. A key with no totals here has nothing to move (its totals are seeded from the
 * ledger, which holds the entry, when a budget check first needs them).
 * KEYS: spend, reservations, amounts, settled marker. ARGV: request id, cost, month, day,
 * how long the marker lives (ms), how long the key's state lives (ms).
 * Returns 1 when counted, 0 when it had been already or the key has no totals here.
 */
export const settleScript = new RedisScript(
  'switchyardSettleBudget',
  `${helpers}
if redis.call('EXISTS', KEYS[1]) == 0 then
  drop_reservation(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
  return 0
end
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
drop_reservation(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
redis.call('HINCRBY', KEYS[1], 'total', ARGV[2])
local periods = {{'month_label', 'month', ARGV[3]}, {'day_label', 'day', ARGV[4]}}
for _, period in ipairs(periods) do
  local label = redis.call('HGET', KEYS[1], period[1])
  if label == period[3] then
    redis.call('HINCRBY', KEYS[1], period[2], ARGV[2])
  elseif not label or period[3] > label then
    -- The first entry of a new UTC month or day: its spend starts from this entry.
    redis.call('HSET', KEYS[1], period[1], period[3], period[2], ARGV[2])
  end
  -- An entry of an earlier period than the newest one here no longer moves any budget checked now.
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
-- Marked last: a script that failed half-way (Redis does not undo its writes) is not taken as done.
redis.call('SET', KEYS[4], '1', 'PX', ARGV[5])
return 1
`,
  4,
);

/** Ends a reservation whose call will have no ledger entry. KEYS: spend, reservations, amounts. ARGV: request id. */
export const releaseScript = new RedisScript(
  'switchyardReleaseBudget',
  `${helpers}
drop_reservation(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
return 1
`,
  3,
);
