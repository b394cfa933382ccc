import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGenerationCall, startSimulatorUpstream, type SimulatorUpstream } from '../support/scripted-upstream/index.js';
import { exitOf, ledgerEntries, serveForDrain } from '../support/drain-gateway.js';
import { streamCall } from '../support/stream-outcome.js';
import { pollUntilDone } from '../support/video-jobs.js';

/**
 * `kill -9` mid-load, then a restart on the same SQLite database: no request id is charged twice;
 * every call whose answer the client had received more than a flush interval (50 ms, with room
 * for a late timer on a shared machine) before the kill is in the ledger; the ledger and an
 * upstream that counts its answers on its own differ by no more than the calls in flight and
 * those of the last flush interval; and a video job leased by the killed process finishes after
 * the restart.
 */

let workDirectory: string;
let upstream: SimulatorUpstream;
beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-kill-'));
  upstream = await startSimulatorUpstream();
});
afterAll(async () => {
  await upstream.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

const concurrency = 20;
/** The writer's flush interval, and room for a timer that fires late on a loaded machine. */
const flushWindowMs = 50 + 200;

describe('a gateway killed outright under load', () => {
  it('loses at most the last flush interval, charges nothing twice, and its video job finishes after a restart', async () => {
    const databaseUrl = `sqlite:${path.join(workDirectory, 'killed.db')}`;
    const settings = { workDirectory, databaseUrl, graceSeconds: 30, upstreamUrl: upstream.url };
    const first = await serveForDrain(settings);
    const client = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const video = await client.videos.create({ model: 'sim-video', prompt: 'a ferry leaving port [video-ms:10000]', seconds: '4', size: '1280x720' });

    const completed: { requestId: string; at: number }[] = [];
    let killed = false;
    const worker = async (index: number): Promise<void> => {
      for (let call = 0; !killed; call++) {
        const outcome = await streamCall(first.url, 'chat', call % 2 === 0 ? 'sim-gpt' : 'sim-claude', `call ${index}.${call} [words:8] [pace:10]`);
        if (outcome.ending === 'complete') completed.push({ requestId: outcome.requestId, at: Date.now() });
      }
    };
    const workers = Array.from({ length: concurrency }, (_, index) => worker(index));
    // Load until calls have been completing for a while (a shared test machine starts slowly).
    const loadUntil = Date.now() + 6_000;
    while (completed.length < 3 * concurrency && Date.now() < loadUntil) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await client.videos.retrieve(video.id)).status).not.toBe('completed');
    const killedAt = Date.now();
    killed = true;
    first.process.kill('SIGKILL');
    await exitOf(first, killedAt);
    await Promise.all(workers);
    const answered = upstream.completed(isGenerationCall);

    const entries = await ledgerEntries(databaseUrl);
    const recorded = new Set(entries.map((entry) => entry.requestId));
    expect(recorded.size).toBe(entries.length);
    expect(completed.length).toBeGreaterThan(concurrency);
    // What the client had well before the kill is on the record.
    const missing = completed.filter((call) => !recorded.has(call.requestId));
    expect(missing.filter((call) => call.at < killedAt - flushWindowMs)).toEqual([]);
    // The upstream's own count: the calls in flight at the kill and the last flush interval's at most.
    const lastInterval = completed.filter((call) => call.at >= killedAt - flushWindowMs).length;
    const textEntries = entries.filter((entry) => entry.endpoint === 'chat').length;
    expect(Math.abs(answered - textEntries)).toBeLessThanOrEqual(concurrency + lastInterval);

    const second = await serveForDrain(settings);
    try {
      const again = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      // Its lease (3 s here) runs out, the new process takes it and finishes it.
      const { video: finished } = await pollUntilDone(again, video.id, 30_000);
      expect(finished.status).toBe('completed');
      const calledAgain = await streamCall(second.url, 'chat', 'sim-gpt', 'after the restart');
      expect(calledAgain.ending).toBe('complete');
    } finally {
      await second.stop();
    }
    const after = await ledgerEntries(databaseUrl);
    expect(new Set(after.map((entry) => entry.requestId)).size).toBe(after.length);
    // The entries written before the kill are there once each, with the restart's job and call added.
    expect(after.length).toBe(entries.length + 2);
  }, 90_000);
});
