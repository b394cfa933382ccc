#!/usr/bin/env node
// The CPU a limited key adds to one call, without a network or a machine's noise: everything the
// gateway does for a key with an rpm, a tpm, a concurrency limit and three budgets — admission,
// the worst-case estimate of the bench's chat body, the reservation, the headers, the settlement
// and the end of the call — run in a loop on the built gateway's own modules (`npm run build`).
// Prints µs per call. Knobs: CALLS (200000).
import { performance } from 'node:perf_hooks';
import { chatBody } from './lib/bodies.mjs';
import { chatModel } from './lib/scenarios.mjs';

const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const [{ InProcessKeyLimits }, { InProcessKeyRateLimiter }, { InProcessBudgetMeter }, { worstTextCostNanoUsd }, { outputBound }, { apiKeyRecord }] = await Promise.all([
  load('governance/in-process-key-limits.js'),
  load('governance/rate-limits/in-process-key-rate-limiter.js'),
  load('governance/budgets/in-process-budget-meter.js'),
  load('governance/worst-case/text-worst-case.js'),
  load('governance/worst-case/output-bound.js'),
  load('keys/api-key-record.js'),
]);

const calls = Number(process.env.CALLS ?? '200000');
const body = chatBody(chatModel, false);
const parsed = JSON.parse(body);
const rate = (usdPerMillion) => ({ base: BigInt(Math.round(usdPerMillion * 1e6)) * 1000n, tiers: [] });
const price = { effectiveFrom: '2024-01-01', text: { input: rate(0.15), output: rate(0.6), cacheRead: rate(0.075), cacheWrite: rate(0.15), cacheWriteOneHour: rate(0.15), reasoning: rate(0.6) } };
const base = { id: 'key_bench', name: 'bench', prefix: 'sy-x', hash: 'h', createdAt: new Date() };
const keys = {
  unlimited: apiKeyRecord(base),
  limited: apiKeyRecord({ ...base, rpm: 1e9, tpm: 2e9, concurrency: 10_000, budgetNanoUsd: 10n ** 18n, dailyBudgetNanoUsd: 10n ** 18n, monthlyBudgetNanoUsd: 10n ** 18n }),
};

async function run(key, count) {
  const budgets = new InProcessBudgetMeter(async () => ({ total: 0n, month: 0n, day: 0n }));
  const limits = new InProcessKeyLimits(new InProcessKeyRateLimiter(), budgets);
  const started = performance.now();
  for (let index = 0; index < count; index += 1) {
    const requestId = `req_${index}`;
    const call = await limits.admit(key);
    await call.reserve(requestId, worstTextCostNanoUsd(price, body, outputBound('chat', parsed)));
    call.headers('chat');
    budgets.settle({ requestId, keyId: key.id, costNanoUsd: 1_000n, createdAt: new Date() });
    call.finish(150);
  }
  return ((performance.now() - started) * 1000) / count;
}

for (const name of Object.keys(keys)) await run(keys[name], 20_000);
const results = {};
for (const name of Object.keys(keys)) results[name] = Number((await run(keys[name], calls)).toFixed(3));
console.log(`µs per call: unlimited ${results.unlimited}, limited ${results.limited}, added ${(results.limited - results.unlimited).toFixed(3)}`);
