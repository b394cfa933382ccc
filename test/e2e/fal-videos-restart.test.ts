import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedSecondFor } from '../../src/sim/videos/encoded-second.js';
import { muxMp4 } from '../../src/sim/videos/mux-mp4.js';
import { startFakeFal, type FakeFal } from '../support/fake-fal/fake-fal.js';
import { ffprobe } from '../support/ffprobe.js';
import { assertBuilt, killOutright, serveConfigFile } from '../support/serve-config-file.js';
import type { SpawnedGateway } from '../support/spawned-gateway.js';
import { pollUntilDone, quickVideoSettings } from '../support/video-jobs.js';

/**
 * A fal job outlives its gateway process: submitted, the process killed outright while fal still
 * has the request queued, a new process on the same SQLite database takes the job over (once the
 * dead one's lease runs out), reads fal's result once the request completes, and charges it once.
 */
const endpoint = 'fal-ai/kling-video/v2.1/master/text-to-video';

let fal: FakeFal;
let workDirectory: string;
let configFile: string;
let video: Buffer;

beforeAll(async () => {
  assertBuilt();
  const encoded = await encodedSecondFor('1920x1080');
  if (encoded === undefined) throw new Error('no 1920x1080 frames');
  video = await muxMp4(encoded, 5);
  fal = await startFakeFal();
  fal.plan = () => ({ queuedPolls: 1_000_000, runningPolls: 0, outcome: { video } });
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-fal-restart-'));
  configFile = path.join(workDirectory, 'switchyard.yaml');
  const config = {
    database: { url: `sqlite:${path.join(workDirectory, 'switchyard.db')}` },
    content: { dir: path.join(workDirectory, 'content') },
    videos: quickVideoSettings,
    providers: { fal: { type: 'fal', api_key: fal.key, base_url: fal.url } },
    models: [{ id: 'kling-fal', output_modality: 'video', routes: [{ provider: 'fal', model: endpoint }] }],
  };
  // JSON is YAML too.
  writeFileSync(configFile, JSON.stringify(config));
});
afterAll(async () => {
  await fal.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

function serve(): Promise<SpawnedGateway> {
  return serveConfigFile(configFile, workDirectory);
}

describe('a fal job whose gateway is killed mid-job', () => {
  it('is finished once by the next process on the same database, and served', async () => {
    const first = await serve();
    const created = await new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 }).videos.create({
      model: 'kling-fal',
      prompt: 'a train crossing a bridge',
      seconds: '5' as OpenAI.Videos.VideoCreateParams['seconds'],
      size: '1920x1080' as OpenAI.Videos.VideoCreateParams['size'],
    });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const request = [...fal.requests.values()].at(-1);
    expect(request?.polls).toBeGreaterThan(0);
    await killOutright(first);
    if (request !== undefined) request.plan = { queuedPolls: 0, runningPolls: 1, outcome: { video } };

    const second = await serve();
    try {
      const client = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const { video: job } = await pollUntilDone(client, created.id, 30_000);
      expect(job.status).toBe('completed');
      expect(fal.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
      expect(fal.calls.filter((call) => call.method === 'GET' && call.path === `/fal-ai/kling-video/requests/${request?.id ?? ''}`)).toHaveLength(1);
      const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ codec: 'h264', width: 1920, height: 1080 });
      expect(Math.abs(probed.durationSeconds - 5)).toBeLessThan(0.1);
    } finally {
      await second.stop();
    }
    // One ledger row for the job, written by the process that finished it: 5 s at Kling's $0.28.
    const database = new Database(path.join(workDirectory, 'switchyard.db'), { readonly: true });
    try {
      const rows = database.prepare('select video_seconds, cost_nano_usd from usage_ledger where request_id = ?').all(created.id);
      expect(rows).toEqual([{ video_seconds: 5, cost_nano_usd: 1_400_000_000 }]);
    } finally {
      database.close();
    }
  });
});
