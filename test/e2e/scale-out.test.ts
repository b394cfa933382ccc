import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../src/redis/redis.test-support.js';
import { ffprobe } from '../support/ffprobe.js';
import { insertLimitedKey } from '../support/limited-keys.js';
import { cappedProviderSlots, clusterWindowSeconds, startScaleOutCluster, type ScaleOutCluster } from '../support/scale-out-cluster.js';
import { pollUntilDone } from '../support/video-jobs.js';

/**
 * Two gateway instances on one PostgreSQL database, one Redis key prefix and one s3rver bucket, as
 * behind a load balancer: what one admits, counts, stores or revokes holds on the other.
 */

const postgresAdminUrl = process.env.TEST_POSTGRES_URL;
const windowMs = clusterWindowSeconds * 1000;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 200 for an answer, else the status of the SDK's error (and the error, to look at its shape). */
async function outcomeOf(call: Promise<unknown>): Promise<{ status: number; error?: InstanceType<typeof OpenAI.APIError> }> {
  try {
    await call;
    return { status: 200 };
  } catch (error) {
    if (error instanceof OpenAI.APIError) return { status: error.status ?? 0, error };
    throw error;
  }
}

/** One streamed chat call read to its end. */
async function streamed(client: OpenAI, model: string, content: string): Promise<void> {
  const stream = await client.chat.completions.create({ model, stream: true, max_tokens: 50, messages: [{ role: 'user', content }] });
  for await (const _chunk of stream) void _chunk;
}

const chat = (client: OpenAI, content = '[words:3] go', model = 'sim-gpt') => client.chat.completions.create({ model, max_tokens: 100, messages: [{ role: 'user', content }] });

/** Waits for the start of a rate window with at least `neededMs` of it left. */
async function freshWindow(neededMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await delay(left + 20);
}

/** Sum of one metric's samples with `provider` across the gateways' `/metrics`. */
async function slotsInUse(cluster: ScaleOutCluster, provider: string): Promise<number> {
  let sum = 0;
  for (const gateway of cluster.gateways) {
    const text = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${cluster.admin.secret}` } })).text();
    const line = text.split('\n').find((entry) => entry.startsWith(`switchyard_upstream_slots_in_use{provider="${provider}"}`));
    sum += line === undefined ? 0 : Number(line.split(' ').at(-1));
  }
  return sum;
}

if (postgresAdminUrl === undefined || testRedisUrl === undefined) {
  describe.skip('two instances scaled out (TEST_POSTGRES_URL or TEST_REDIS_URL is not set; run under scripts/with-postgres.js and scripts/with-redis.js)', () => {
    it('skipped', () => undefined);
  });
} else {
  const redisUrl = testRedisUrl;
  let cluster: ScaleOutCluster;
  let first: ScaleOutCluster['gateways'][number];
  let second: ScaleOutCluster['gateways'][number];

  beforeAll(async () => {
    cluster = await startScaleOutCluster({ postgresAdminUrl, redisUrl, s3: true });
    [first, second] = cluster.gateways as [typeof first, typeof second];
  }, 30_000);
  afterAll(async () => {
    await cluster?.close();
  });

  describe('two instances on one database, one Redis and one bucket', () => {
    it('admit exactly rpm calls per window between them, and again once the window rolls over', async () => {
      const { secret } = await insertLimitedKey(cluster.storage, { rpm: 3 });
      const clients = [cluster.client(first, secret), cluster.client(second, secret)];
      await freshWindow(2_000);
      const outcomes = [];
      for (let call = 0; call < 6; call += 1) outcomes.push(await outcomeOf(chat(clients[call % 2]!)));
      expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200, 200, 429, 429, 429]);
      const refusal = outcomes[3]!.error!;
      expect(refusal.code).toBe('rate_limit_exceeded');
      expect(refusal.message).toContain(`3 requests per ${clusterWindowSeconds}-second window`);
      expect(Number(refusal.headers?.get('retry-after'))).toBeLessThanOrEqual(clusterWindowSeconds);
      expect(refusal.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
      const left = windowMs - (Date.now() % windowMs);
      await delay(left + 20);
      const next = await clients[1]!.chat.completions.create({ model: 'sim-gpt', max_tokens: 10, messages: [{ role: 'user', content: 'again' }] }).withResponse();
      expect(next.response.headers.get('x-ratelimit-remaining-requests')).toBe('2');
      expect((await outcomeOf(chat(clients[0]!))).status).toBe(200);
    });

    it('hold a key to its concurrency across both: exactly that many streams in flight, the rest 429', async () => {
      const { secret } = await insertLimitedKey(cluster.storage, { concurrency: 2 });
      const clients = [cluster.client(first, secret), cluster.client(second, secret)];
      const outcomes = await Promise.all(Array.from({ length: 6 }, (_, call) => outcomeOf(streamed(clients[call % 2]!, 'sim-gpt', '[delay:1000] [words:3] go'))));
      const statuses = outcomes.map((outcome) => outcome.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(2);
      expect(statuses.filter((status) => status === 429)).toHaveLength(4);
      expect((await outcomeOf(streamed(clients[1]!, 'sim-gpt', 'go'))).status).toBe(200);
    });

    it('never spend a budget past the worst case of the calls in flight under load split over both', async () => {
      // sim-gpt costs $1 per million input tokens and $2 per million output tokens; a call's worst
      // case counts every body byte an input token, plus its output cap.
      const content = '[delay:600] [words:3] go';
      const body = JSON.stringify({ model: 'sim-gpt', max_tokens: 100, messages: [{ role: 'user', content }] });
      const worst = BigInt(Buffer.byteLength(body)) * 1_000n + 100n * 2_000n;
      const budget = worst * 3n + worst / 2n;
      const { secret, id } = await insertLimitedKey(cluster.storage, { budgetNanoUsd: budget });
      const clients = [cluster.client(first, secret), cluster.client(second, secret)];
      const before = cluster.upstreamRequests();
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, call) => outcomeOf(chat(clients[call % 2]!, content))));
      const admitted = outcomes.filter((outcome) => outcome.status === 200).length;
      const refused = outcomes.filter((outcome) => outcome.status === 402);
      expect(admitted + refused.length).toBe(12);
      expect(admitted).toBeGreaterThanOrEqual(1);
      expect(admitted).toBeLessThanOrEqual(3);
      expect(refused[0]?.error?.code).toBe('budget_exhausted');
      // A refused call reached no upstream.
      expect(cluster.upstreamRequests() - before).toBe(admitted);
      await Promise.all(cluster.gateways.map((gateway) => gateway.services.ledger.flush()));
      const spent = (await cluster.storage.ledger.list({ keyId: id })).reduce((sum, entry) => sum + entry.costNanoUsd, 0n);
      expect(spent).toBeGreaterThan(0n);
      expect(spent).toBeLessThanOrEqual(budget + worst);
    });

    it('work a video submitted on one to completion, polled and downloaded on the other', async () => {
      const { secret } = await insertLimitedKey(cluster.storage, {});
      const submitted = await cluster.client(first, secret).videos.create({ model: 'sim-video', prompt: '[video-ms:300] a lighthouse at dusk', seconds: '4', size: '1280x720' });
      const polled = await pollUntilDone(cluster.client(second, secret), submitted.id);
      expect(polled.video.status).toBe('completed');
      const content = await cluster.client(second, secret).videos.downloadContent(submitted.id);
      const probed = await ffprobe(new Uint8Array(await content.arrayBuffer()));
      expect(probed.codec).toBe('h264');
      expect(probed.width).toBe(1280);
      expect(Math.round(probed.durationSeconds)).toBe(4);
    });

    it("serve an image URL made by one from the other, from the bucket", async () => {
      const { secret } = await insertLimitedKey(cluster.storage, {});
      const answer = await cluster.client(first, secret).images.generate({ model: 'sim-image', prompt: 'a harbour', size: '1024x1024', quality: 'low', output_format: 'png', response_format: 'url' });
      const url = new URL(answer.data?.[0]?.url ?? '');
      const fromSecond = await fetch(`${second.url}${url.pathname}${url.search}`);
      expect(fromSecond.status).toBe(200);
      const bytes = Buffer.from(await fromSecond.arrayBuffer());
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect(bytes.equals(Buffer.from(await (await fetch(url)).arrayBuffer()))).toBe(true);
    });

    it("refuse on one a key revoked through the other's admin API within 5 seconds", async () => {
      const { secret, id } = await insertLimitedKey(cluster.storage, {});
      const onSecond = cluster.client(second, secret);
      // Known (and cached) on the second before it is revoked.
      expect((await outcomeOf(chat(onSecond))).status).toBe(200);
      const revoked = await fetch(`${first.url}/admin/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${cluster.admin.secret}` } });
      expect(revoked.status).toBe(200);
      const revokedAt = Date.now();
      expect((await outcomeOf(chat(cluster.client(first, secret)))).status).toBe(401);
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 7_000) {
        status = (await outcomeOf(chat(onSecond, 'hi'))).status;
        if (status === 200) await delay(100);
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(5_300);
    });

    it('export the same ledger, byte for byte, from either', async () => {
      await Promise.all(cluster.gateways.map((gateway) => gateway.services.ledger.flush()));
      const exported = await Promise.all(
        cluster.gateways.flatMap((gateway) =>
          ['jsonl', 'csv'].map(async (format) => (await fetch(`${gateway.url}/admin/ledger?format=${format}`, { headers: { authorization: `Bearer ${cluster.admin.secret}` } })).text()),
        ),
      );
      const [firstJsonl, firstCsv, secondJsonl, secondCsv] = exported as [string, string, string, string];
      expect(firstJsonl.trim().split('\n').length).toBeGreaterThan(10);
      expect(secondJsonl).toBe(firstJsonl);
      expect(secondCsv).toBe(firstCsv);
    });

    it("hold an upstream's concurrency cap across both: the rest 429 upstream_busy with nothing sent, a fallback route still serves", async () => {
      const { secret, id } = await insertLimitedKey(cluster.storage, {});
      const clients = [cluster.client(first, secret), cluster.client(second, secret)];
      const before = cluster.upstreamRequests();
      const running = Array.from({ length: 6 }, (_, call) => outcomeOf(streamed(clients[call % 2]!, 'capped-gpt', '[delay:1500] [words:3] go')));
      await delay(700);
      expect(cluster.simulator.activeStreams()).toBe(cappedProviderSlots);
      expect(await slotsInUse(cluster, 'capped-sim')).toBe(cappedProviderSlots);
      // The capped provider is full: the model that falls back from it is served by the next route.
      expect((await outcomeOf(chat(clients[1]!, 'go', 'capped-then-free'))).status).toBe(200);
      const outcomes = await Promise.all(running);
      expect(outcomes.filter((outcome) => outcome.status === 200)).toHaveLength(cappedProviderSlots);
      const busy = outcomes.filter((outcome) => outcome.status === 429);
      expect(busy).toHaveLength(6 - cappedProviderSlots);
      // OpenAI's code for every 429; the message says which cap it met.
      expect(busy[0]?.error?.code).toBe('rate_limit_exceeded');
      expect(busy[0]?.error?.message).toContain(`'capped-sim' already has ${cappedProviderSlots} requests in flight`);
      expect(busy[0]?.error?.headers?.get('retry-after')).toBe('1');
      expect(cluster.upstreamRequests() - before).toBe(cappedProviderSlots + 1);
      expect(await slotsInUse(cluster, 'capped-sim')).toBe(0);
      await Promise.all(cluster.gateways.map((gateway) => gateway.services.ledger.flush()));
      const refusedEntries = (await cluster.storage.ledger.list({ keyId: id })).filter((entry) => entry.status === 429);
      expect(refusedEntries).toHaveLength(6 - cappedProviderSlots);
      expect(refusedEntries.every((entry) => entry.costNanoUsd === 0n)).toBe(true);
      // Every slot came back: the cap admits again on either instance.
      expect((await outcomeOf(streamed(clients[0]!, 'capped-gpt', 'go'))).status).toBe(200);
    });

    it('count image calls against the same cap until their answer is read', async () => {
      const { secret } = await insertLimitedKey(cluster.storage, {});
      const clients = [cluster.client(first, secret), cluster.client(second, secret)];
      const before = cluster.upstreamRequests();
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, (_, call) => outcomeOf(clients[call % 2]!.images.generate({ model: 'capped-image', prompt: '[delay:1000] a harbour', size: '1024x1024', quality: 'low' }))),
      );
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([200, 200, 429, 429]);
      expect(cluster.upstreamRequests() - before).toBe(cappedProviderSlots);
    });
  });
}
