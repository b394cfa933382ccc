import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRunway, type FakeRunway } from '../support/fake-runway/index.js';
import { ffprobe } from '../support/ffprobe.js';
import { assertBuilt, killOutright, serveConfigFile } from '../support/serve-config-file.js';
import type { SpawnedGateway } from '../support/spawned-gateway.js';
import { pollUntilDone, quickVideoSettings } from '../support/video-jobs.js';

/**
 * A Runway job outlives a `switchyard serve` process killed outright mid-render: a new process on
 * the same SQLite database takes the job over once the dead one's lease runs out, polls the same
 * task (no second submit), copies its output once and charges it once.
 */


let runway: FakeRunway;
let workDirectory: string;
let configFile: string;

beforeAll(async () => {
  assertBuilt();
  runway = await startFakeRunway({ steps: ['PENDING', 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] });
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-runway-restart-'));
  configFile = path.join(workDirectory, 'switchyard.yaml');
  const config = {
    database: { url: `sqlite:${path.join(workDirectory, 'switchyard.db')}` },
    content: { dir: path.join(workDirectory, 'content') },
    videos: quickVideoSettings,
    providers: { runway: { type: 'runway', api_key: runway.apiKey, base_url: runway.url } },
    models: [{ id: 'gen4.5', output_modality: 'video', routes: [{ provider: 'runway', model: 'gen4.5' }] }],
  };
  // JSON is YAML too.
  writeFileSync(configFile, JSON.stringify(config));
});
afterAll(async () => {
  await runway.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

function serve(): Promise<SpawnedGateway> {
  return serveConfigFile(configFile, workDirectory);
}

describe('a served gateway killed mid-job on Runway', () => {
  it('finishes the job after a restart on the same database: one submit, one download, one charge', async () => {
    const first = await serve();
    const firstClient = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const created = await firstClient.videos.create({ model: 'gen4.5', prompt: 'a train crossing a bridge', seconds: '4', size: '1280x720' });
    const deadline = Date.now() + 10_000;
    while ((runway.tasks.values().next().value?.polls ?? 0) < 2) {
      if (Date.now() > deadline) throw new Error('the task was never polled');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await killOutright(first);

    const second = await serve();
    try {
      const client = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const { video } = await pollUntilDone(client, created.id, 30_000);
      expect(video).toMatchObject({ status: 'completed', usage: { seconds: 4, cost_usd: '0.48' } });
      const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
      expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
      expect(runway.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
      expect(runway.downloads.filter((download) => download.status === 200)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
