import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorUpstream, untilGenerationCalls, type SimulatorUpstream } from '../support/scripted-upstream/index.js';
import { exitOf, ledgerEntries, serveForDrain, slowPrompt } from '../support/drain-gateway.js';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../support/postgres-test-database.js';
import { streamCall, type StreamFormat } from '../support/stream-outcome.js';

/**
 * A rolling restart under load: two instances on one PostgreSQL, 200 slow streams split
 * over both in the three client formats (5 s each here: on a shared test machine 200 take seconds to start); one
 * instance is sent SIGTERM with a 1 s grace mid-load.
 * Every stream completes or ends with its format's error event, the ledger has exactly one entry
 * per request id, and the other instance keeps serving.
 */

const adminUrl = process.env.TEST_POSTGRES_URL;
let workDirectory: string;
let database: PostgresTestDatabase;
let upstream: SimulatorUpstream;

beforeAll(async () => {
  if (adminUrl === undefined) return;
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-rolling-'));
  database = await createPostgresTestDatabase(adminUrl);
  upstream = await startSimulatorUpstream();
});
afterAll(async () => {
  if (adminUrl === undefined) return;
  await upstream.close();
  await database.drop();
  rmSync(workDirectory, { recursive: true, force: true });
});

const formats: readonly StreamFormat[] = ['chat', 'responses', 'messages'];
const models = ['sim-gpt', 'sim-claude', 'sim-gemini'];

describe.skipIf(adminUrl === undefined)('a rolling restart under load', () => {
  it('ends every stream in full or with its error event, one ledger entry per request, while the other instance serves on', async () => {
    // One after the other: both migrating the empty database at once is not what is tested here.
    const leaving = await serveForDrain({ workDirectory, databaseUrl: database.url, graceSeconds: 1, upstreamUrl: upstream.url, name: 'leaving' });
    const staying = await serveForDrain({ workDirectory, databaseUrl: database.url, graceSeconds: 30, upstreamUrl: upstream.url, name: 'staying' });
    try {
      const calls = Array.from({ length: 200 }, (_, index) =>
        streamCall(index % 2 === 0 ? leaving.url : staying.url, formats[index % 3] as StreamFormat, models[Math.floor(index / 3) % 3] as string, slowPrompt(20, 250)),
      );
      // Every stream has reached the upstream, so each instance is in the middle of its 100.
      await untilGenerationCalls(upstream, 200);
      const signalledAt = Date.now();
      leaving.process.kill('SIGTERM');
      const exited = exitOf(leaving, signalledAt);
      const outcomes = await Promise.all(calls);
      // The staying instance serves a call started after the other one left.
      const after = await streamCall(staying.url, 'chat', 'sim-gpt', 'still there?');
      expect(after.ending).toBe('complete');
      const exit = await exited;
      expect(exit.code).toBe(0);
      expect(exit.afterMs).toBeLessThan(1_000 + 5_000);

      expect(outcomes.filter((outcome) => outcome.status !== 200)).toEqual([]);
      expect(outcomes.filter((outcome) => outcome.ending === 'broken').map((outcome) => outcome.text.slice(-300))).toEqual([]);
      const leavingOutcomes = outcomes.filter((_, index) => index % 2 === 0);
      const stayingOutcomes = outcomes.filter((_, index) => index % 2 === 1);
      // 1 s of grace for 5 s streams: the leaving instance cut its streams with their error events.
      expect(leavingOutcomes.filter((outcome) => outcome.ending === 'error_event').length).toBeGreaterThan(0);
      expect(stayingOutcomes.every((outcome) => outcome.ending === 'complete')).toBe(true);

      await staying.stop();
      const entries = await ledgerEntries(database.url);
      const sent = [...outcomes.map((outcome) => outcome.requestId), after.requestId];
      expect(new Set(sent).size).toBe(201);
      expect(entries.map((entry) => entry.requestId).sort()).toEqual(sent.sort());
    } finally {
      await Promise.all([leaving.stop(), staying.stop()]);
    }
  }, 90_000);
});
