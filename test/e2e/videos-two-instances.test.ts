import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixtureBytes } from '../support/fixtures.js';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../support/postgres-test-database.js';
import { startScriptedUpstream, type ReceivedRequest, type Reply, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
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
  /** The prompt it was created with, which tells its create calls apart from the others'. */
  readonly prompt: string;
  maxConcurrentPolls: number;
  readonly pollers: string[];
}

/** The prompt of a text-to-video submit (a JSON body). */
function promptOf(request: ReceivedRequest): string {
  return (JSON.parse(request.body) as { prompt?: string }).prompt ?? '';
}

/** A Sora-like vendor on a scripted upstream that watches who polls each job, and how many at once. */
class WatchingUpstream {
  readonly jobs = new Map<string, UpstreamJob>();
  renderMs = 1_500;
  pollDelayMs = 150;
  /** The next poll is held until its connection dies (its instance is killed mid-poll)... */
  holdNextPoll = false;
  /** ...and this says which instance made it. */
  heldBy: string | undefined;
  private upstream: ScriptedUpstream | undefined;

  get url(): string {
    return this.upstream?.url ?? '';
  }

  async start(): Promise<void> {
    this.upstream = await startScriptedUpstream({ reply: (request) => this.answer(request) });
  }

  close(): Promise<void> {
    return this.upstream?.close() ?? Promise.resolve();
  }

  /** Create calls the upstream received for `job`. */
  creates(job: UpstreamJob): number {
    return (this.upstream?.requests ?? []).filter((request) => request.method === 'POST' && request.path === '/v1/videos' && promptOf(request) === job.prompt).length;
  }

  private answer(request: ReceivedRequest): Reply {
    const instance = String(request.headers['x-instance']);
    if (request.method === 'POST' && request.path === '/v1/videos') {
      const id = `video_up${this.jobs.size}`;
      this.jobs.set(id, { createdAt: Date.now(), prompt: promptOf(request), maxConcurrentPolls: 0, pollers: [] });
      return { body: JSON.stringify(this.jobObject(id, Date.now())) };
    }
    if (request.method === 'GET' && /^\/v1\/videos\/([^/?]+)\/content/.test(request.path)) return { contentType: 'video/mp4', body: mp4 };
    const poll = /^\/v1\/videos\/([^/?]+)$/.exec(request.path);
    const job = poll === null ? undefined : this.jobs.get(poll[1]!);
    if (request.method !== 'GET' || job === undefined || poll === null) return { status: 404, body: '{"error":{"message":"not found"}}' };
    job.pollers.push(instance);
    // The polls of this job still in flight, this one included.
    const inFlight = this.upstream!.requests.filter((other) => other.method === 'GET' && other.path === request.path && other.answer.endedAt === undefined).length;
    job.maxConcurrentPolls = Math.max(job.maxConcurrentPolls, inFlight);
    if (this.holdNextPoll) {
      this.holdNextPoll = false;
      this.heldBy = instance;
      return { delayMs: Infinity };
    }
    return { delayMs: this.pollDelayMs, body: JSON.stringify(this.jobObject(poll[1]!, Date.now() + this.pollDelayMs)) };
  }

  /** The job as the vendor states it at `at`. */
  private jobObject(id: string, at: number): Record<string, unknown> {
    const job = this.jobs.get(id)!;
    const elapsed = at - job.createdAt;
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
      expect(upstream.creates(job)).toBe(1);
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
    expect(upstream.creates(upstreamJob)).toBe(1);
    expect(upstreamJob.maxConcurrentPolls).toBe(1);
    expect(upstreamJob.pollers.at(-1)).not.toBe(victim);
    expect(Buffer.from(await (await survivor.videos.downloadContent(created.id)).arrayBuffer()).equals(mp4)).toBe(true);
  }, 60_000);
});
