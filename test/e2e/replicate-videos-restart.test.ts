import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobe } from '../support/ffprobe.js';
import { startFakeReplicate, type FakeReplicate } from '../support/fake-replicate/index.js';
import { assertBuilt, killOutright, serveConfigFile } from '../support/serve-config-file.js';
import type { SpawnedGateway } from '../support/spawned-gateway.js';
import { runSwitchyardCli } from '../support/switchyard-cli.js';
import { pollUntilDone, quickVideoSettings } from '../support/video-jobs.js';

/**
 * A Replicate job outlives its gateway: a `switchyard serve` process killed outright while the
 * prediction renders, a new one on the same SQLite database takes the job over once the dead
 * one's lease runs out, finishes it from the same prediction, and charges it once.
 */

const token = 'r8_restart_token';

let workDirectory: string;
let configFile: string;
let databaseUrl: string;
let fake: FakeReplicate;

beforeAll(async () => {
  assertBuilt();
  fake = await startFakeReplicate({ token });
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-replicate-restart-'));
  configFile = path.join(workDirectory, 'switchyard.yaml');
  databaseUrl = `sqlite:${path.join(workDirectory, 'switchyard.db')}`;
  const config = {
    database: { url: databaseUrl },
    content: { dir: path.join(workDirectory, 'content') },
    videos: quickVideoSettings,
    providers: { replicate: { type: 'replicate', base_url: fake.baseUrl, api_key: token } },
    models: [
      {
        id: 'veo-3-fast-replicate',
        output_modality: 'video',
        routes: [{ provider: 'replicate', model: 'google/veo-3-fast' }],
        price: { effective_from: '2026-01-01', per_second: { 'text-to-video/720p/16:9': '0.15' } },
      },
    ],
  };
  // JSON is YAML too.
  writeFileSync(configFile, JSON.stringify(config));
});
afterAll(async () => {
  await fake?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

function serve(): Promise<SpawnedGateway> {
  return serveConfigFile(configFile, workDirectory);
}

describe('a gateway killed mid-job on Replicate', () => {
  it('finishes the job after a restart from the same prediction, and charges it once', async () => {
    const first = await serve();
    const firstClient = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const created = await firstClient.videos.create({ model: 'veo-3-fast-replicate', prompt: 'a night train [render-ms:3000]', seconds: '8', size: '1280x720' });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await firstClient.videos.retrieve(created.id)).status).not.toBe('completed');
    await killOutright(first);

    const second = await serve();
    try {
      const client = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const { video } = await pollUntilDone(client, created.id, 30_000);
      expect(video.status).toBe('completed');
      const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
      expect(Math.abs(probed.durationSeconds - 8)).toBeLessThan(0.1);
    } finally {
      await second.stop();
    }
    const creates = fake.apiRequests.filter((request) => request.method === 'POST' && !request.path.endsWith('/cancel'));
    expect(creates).toHaveLength(1);
    expect(fake.deliveryRequests).toHaveLength(1);
    const exported = await runSwitchyardCli(['ledger', 'export'], { databaseUrl, cwd: workDirectory });
    expect(exported.code).toBe(0);
    const entries = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { request_id: string; cost_usd: string })
      .filter((entry) => entry.request_id === created.id);
    expect(entries.map((entry) => Number(entry.cost_usd))).toEqual([1.2]);
  });
});
