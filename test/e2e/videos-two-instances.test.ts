import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixtureBytes } from '../support/fixtures.js';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../support/postgres-test-database.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';
import { pollUntilDone } from '../support/video-jobs.js';

/**
 * Two gateway processes on one PostgreSQL database and one content directory, in front of an
 * OpenAI-shaped video upstream that watches them: it sees one create per job, never two polls of
 * a job at once, and which instance made each call (each sends its own header). A job is readable
 * and downloadable from both; when the instance polling a job is killed mid-poll, the other
 * finishes it once the lease has run out.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');
const adminUrl = process.env.TEST_POSTGRES_URL;
const mp4 = readFixtureBytes('generated/upstream-video-320x180-4s.mp4');

/** How the watching upstream runs a job: finished after `renderMs`, polls held open `pollDelayMs`. */
interface UpstreamJob {
  readonly createdAt: number;
  readonly creates: number;
  inFlightPolls: number;
  maxConcurrentPolls: number;
  readonly pollers: string[];
}

class WatchingUpstream {
  readonly jobs = new Map<string, UpstreamJob>();
  renderMs = 1_500;
  pollDelayMs = 150;
  /** The next poll is held until its connection dies (its instance is killed mid-poll)... */
  holdNextPoll = false;
  /** ...and this says which instance made it. */
  heldBy: string | undefined;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.answer(request.method ?? '', request.url ?? '', String(request.headers['x-instance']), response));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }

  private answer(method: string, url: string, instance: string, response: import('node:http').ServerResponse): void {
    const json = (body: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (method === 'POST' && url === '/v1/videos') {
      const id = `video_up${this.jobs.size}`;
      this.jobs.set(id, { createdAt: Date.now(), creates: 1, inFlightPolls: 0, maxConcurrentPolls: 0, pollers: [] });
      json(this.jobObject(id));
      return;
    }
    const content = /^\/v1\/videos\/([^/?]+)\/content/.exec(url);
    if (method === 'GET' && content !== null) {
      response.writeHead(200, { 'content-type': 'video/mp4' });
      response.end(mp4);
      return;
    }
    const poll = /^\/v1\/videos\/([^/?]+)$/.exec(url);
    const job = poll === null ? undefined : this.jobs.get(poll[1]!);
    if (method !== 'GET' || job === undefined || poll === null) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"not found"}}');
      return;
    }
    job.pollers.push(instance);
    job.inFlightPolls++;
    job.maxConcurrentPolls = Math.max(job.maxConcurrentPolls, job.inFlightPolls);
    response.once('close', () => job.inFlightPolls--);
    if (this.holdNextPoll) {
      this.holdNextPoll = false;
      this.heldBy = instance;
      return;
    }
    setTimeout(() => json(this.jobObject(poll[1]!)), this.pollDelayMs);
  }

  private jobObject(id: string): Record<string, unknown> {
    const job = this.jobs.get(id)!;
    const elapsed = Date.now() - job.createdAt;
    const done = elapsed >= this.renderMs;
    return {
      id,
      object: 'video',
      model: 'sora-2',
      status: done ? 'completed' : 'in_progress',
      progress: done ? 100 : Math.floor((90 * elapsed) / this.renderMs),
      created_at: Math.floor(job.createdAt / 1000),
      seconds: '4',
      size: '1280x720',
      error: null,
    };
  }
}

describe.skipIf(adminUrl === undefined)('two instances on one PostgreSQL', () => {
  const upstream = new WatchingUpstream();
  let database: PostgresTestDatabase;
  let workDirectory: string;
  const instances = new Map<string, SpawnedGateway>();

  function configFor(instance: string): string {
    const file = path.join(workDirectory, `${instance}.yaml`);
    const config = {
      database: { url: database.url },
      content: { dir: path.join(workDirectory, 'content') },
      videos: { poll_interval_ms: 100, max_poll_interval_ms: 200, claim_interval_ms: 50, lease_seconds: 3 },
      providers: { videos: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-secret', headers: { 'x-instance': instance } } },
      models: [
        {
          id: 'clip',
          output_modality: 'video',
          routes: [{ provider: 'videos', model: 'sora-2' }],
          video: { variants: [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4], usd_per_second: '0.10' }] },
          price: { effective_from: '2026-01-01' },
        },
      ],
    };
    writeFileSync(file, JSON.stringify(config));
    return file;
  }

  async function serve(instance: string): Promise<OpenAI> {
    const gateway = await spawnGateway(process.execPath, [bin, 'serve', '--config', configFor(instance), '--port', '0'], {
      cwd: workDirectory,
      env: zeroConfigEnvironment(),
      urlPattern: /"url":"(http:\/\/[^"]+)"/,
    });
    instances.set(instance, gateway);
    return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  }

  let first: OpenAI;
  let second: OpenAI;

  beforeAll(async () => {
    await upstream.start();
    database = await createPostgresTestDatabase(adminUrl!);
    workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-two-instances-'));
    // One at a time: both migrate on start, and the first creates the schema.
    first = await serve('A');
    second = await serve('B');
  }, 60_000);
  afterAll(async () => {
    await Promise.all([...instances.values()].map((gateway) => gateway.stop()));
    await upstream.close();
    await database?.drop();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('works each job once, one poll at a time, and serves it from both', async () => {
    const created = await Promise.all([0, 1, 2, 3].map((index) => (index % 2 === 0 ? first : second).videos.create({ model: 'clip', prompt: `job ${index}`, seconds: '4', size: '1280x720' })));
    for (const job of created) expect((await pollUntilDone(first, job.id)).video.status).toBe('completed');
    expect(upstream.jobs.size).toBe(4);
    for (const job of upstream.jobs.values()) {
      expect(job.creates).toBe(1);
      expect(job.maxConcurrentPolls).toBe(1);
    }
    for (const client of [first, second]) {
      for (const job of created) {
        expect((await client.videos.retrieve(job.id)).status).toBe('completed');
        expect(Buffer.from(await (await client.videos.downloadContent(job.id)).arrayBuffer()).equals(mp4)).toBe(true);
      }
    }
  }, 60_000);

  it('when the instance polling a job is killed, the other finishes it after the lease', async () => {
    upstream.renderMs = 2_500;
    const created = await first.videos.create({ model: 'clip', prompt: 'the one that survives', seconds: '4', size: '1280x720' });
    const upstreamJob = [...upstream.jobs.values()].at(-1)!;
    // Hold the next poll, whichever instance makes it, and kill that instance while it waits.
    upstream.holdNextPoll = true;
    const deadline = Date.now() + 10_000;
    while (upstream.heldBy === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const victim = upstream.heldBy!;
    const survivor = victim === 'A' ? second : first;
    instances.get(victim)!.process.kill('SIGKILL');
    const { video } = await pollUntilDone(survivor, created.id, 30_000);
    expect(video.status).toBe('completed');
    expect(upstreamJob.creates).toBe(1);
    expect(upstreamJob.maxConcurrentPolls).toBe(1);
    expect(upstreamJob.pollers.at(-1)).not.toBe(victim);
    expect(Buffer.from(await (await survivor.videos.downloadContent(created.id)).arrayBuffer()).equals(mp4)).toBe(true);
  }, 60_000);
});
