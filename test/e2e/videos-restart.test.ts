import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { ffprobe } from '../support/ffprobe.js';
import { assertBuilt, killOutright, serveConfigFile } from '../support/serve-config-file.js';
import type { SpawnedGateway } from '../support/spawned-gateway.js';
import { pollUntilDone, quickVideoSettings } from '../support/video-jobs.js';

/**
 * A video job outlives its gateway: submitted, the process killed outright mid-job, a new process
 * started on the same SQLite database finishes it (after the dead one's lease runs out) and
 * serves the video. The simulator restarts with the gateway, as in a zero-config start.
 */


let workDirectory: string;
let configFile: string;

beforeAll(() => {
  assertBuilt();
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-video-restart-'));
  configFile = path.join(workDirectory, 'switchyard.yaml');
  const config = {
    ...defaultConfig({}),
    database: { url: `sqlite:${path.join(workDirectory, 'switchyard.db')}` },
    content: { dir: path.join(workDirectory, 'content') },
    videos: quickVideoSettings,
  };
  // JSON is YAML too.
  writeFileSync(configFile, JSON.stringify(config));
});
afterAll(() => {
  rmSync(workDirectory, { recursive: true, force: true });
});

function serve(): Promise<SpawnedGateway> {
  return serveConfigFile(configFile, workDirectory);
}

describe('a gateway killed mid-job', () => {
  it('finishes the job after a restart on the same database, and serves it', async () => {
    const first = await serve();
    const firstClient = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const created = await firstClient.videos.create({ model: 'sim-video', prompt: 'a train crossing a bridge [video-ms:3000]', seconds: '4', size: '1280x720' });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await firstClient.videos.retrieve(created.id)).status).not.toBe('completed');
    await killOutright(first);

    const second = await serve();
    try {
      const client = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const { video } = await pollUntilDone(client, created.id, 30_000);
      expect(video.status).toBe('completed');
      const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ width: 1280, height: 720 });
      expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
    } finally {
      await second.stop();
    }
  });
});
