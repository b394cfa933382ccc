#!/usr/bin/env node
// The metering of a call away from the HTTP path, in CPU µs per ledger entry: a build's appends,
// rollup folding and metrics, timed alone over 10,000 entries a round (median of the rounds).
//   npm run build && node bench/metering.mjs                          # every part, this checkout's dist/
//   node bench/metering.mjs append /path/to/other/dist                 # one part (or all), another build
//   node scripts/with-postgres.js node bench/metering.mjs append       # appends to PostgreSQL
// Parts: append (appendMany in batches of 200 to a SQLite file, to :memory: with MEMORY=1, or to
// TEST_POSTGRES_URL), increments (ledgerIncrements of the same batches), metrics (every entry
// observed, then a scrape; the scrape is timed apart). ROUNDS (9) sets the timed rounds, after one untimed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const parts = process.argv[2] === undefined || process.argv[2] === 'all' ? ['append', 'increments', 'metrics'] : [process.argv[2]];
const dist = pathToFileURL(path.resolve(process.argv[3] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'))).href;
const entriesPerRound = 10_000;
const batchSize = 200;
const rounds = Number(process.env.ROUNDS ?? 9);

/** A round's entries: 4 keys, 2 models, one call in 50 failed, 5 ms apart (a round spans 50 s of one minute). */
function entries(round) {
  const start = Date.UTC(2026, 10, 27, 16, 0, 0) + round * 60_000;
  return Array.from({ length: entriesPerRound }, (_, index) => ({
    requestId: `req_${round}_${index}_0123456789abcdef`, keyId: `key_${index % 4}`, model: index % 10 === 0 ? 'claude-sonnet-4' : 'gpt-4o-mini',
    provider: 'upstream', upstreamModel: 'gpt-4o-mini-2024-07-18', endpoint: 'chat', status: index % 50 === 0 ? 502 : 200,
    inputUncached: 27, cacheRead: 0, cacheWrite: 0, output: 12, reasoning: 0, images: 0, videoSeconds: 0, usageEstimated: false,
    costNanoUsd: 11_250n + BigInt(index % 7), createdAt: new Date(start + index * 5), durationMs: 1 + (index % 300),
  }));
}

function batches(all) {
  const out = [];
  for (let start = 0; start < all.length; start += batchSize) out.push(all.slice(start, start + batchSize));
  return out;
}

/** Median CPU µs per entry of `work` over the rounds. */
async function timed(work) {
  const perEntry = [];
  // One round untimed first, so the figures are of optimised code.
  await work(batches(entries(rounds)));
  for (let round = 0; round < rounds; round++) {
    const prepared = batches(entries(round));
    const before = process.cpuUsage();
    await work(prepared);
    const used = process.cpuUsage(before);
    perEntry.push((used.user + used.system) / entriesPerRound);
  }
  perEntry.sort((left, right) => left - right);
  return perEntry[Math.floor(perEntry.length / 2)].toFixed(3);
}

for (const part of parts) {
  if (part === 'append') {
    const { openStorage } = await import(`${dist}/storage/open-storage.js`);
    const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-metering-'));
    const url = process.env.TEST_POSTGRES_URL ?? (process.env.MEMORY === '1' ? 'sqlite::memory:' : `sqlite://${path.join(directory, 'ledger.db')}`);
    const storage = await openStorage(url);
    await storage.migrate();
    const result = await timed(async (prepared) => {
      for (const batch of prepared) await storage.ledger.appendMany(batch);
    });
    console.log(`append (${url.split(':')[0]}${process.env.MEMORY === '1' ? ' in memory' : ''}): ${result} µs an entry`);
    await storage.close();
    rmSync(directory, { recursive: true, force: true });
  } else if (part === 'increments') {
    const { ledgerIncrements } = await import(`${dist}/storage/ledger-increments.js`);
    const result = await timed((prepared) => {
      for (const batch of prepared) ledgerIncrements(batch);
    });
    console.log(`increments: ${result} µs an entry`);
  } else if (part === 'metrics') {
    const { GatewayMetrics } = await import(`${dist}/observability/gateway-metrics.js`);
    const metrics = new GatewayMetrics({ videoJobCounts: async () => ({}) });
    const result = await timed((prepared) => {
      for (const batch of prepared) for (const entry of batch) metrics.observeLedgerEntry(entry);
    });
    const before = process.cpuUsage();
    await metrics.scrape();
    const scrape = process.cpuUsage(before);
    console.log(`metrics: ${result} µs an entry observed; a scrape after ${(rounds + 1) * entriesPerRound} entries: ${((scrape.user + scrape.system) / 1000).toFixed(2)} ms`);
  } else {
    throw new Error(`unknown part ${part}: append, increments or metrics`);
  }
}
