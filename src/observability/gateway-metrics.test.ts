import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import type { LedgerEntry } from '../metering/ledger-entry.js';
import { ledgerEntry, mediaOnly } from '../storage/storage-contract-records.test-support.js';
import { GatewayMetrics, type VideoJobCounts } from './gateway-metrics.js';
import { latencyBucketsSeconds } from './latency-buckets.js';
import { nanoUsdToUsd } from './nano-usd-to-usd.js';
import { statusClass } from './status-class.js';
import { parsePrometheusText, samplesOf, sumOf, type PrometheusSample } from './prometheus-samples.test-support.js';

function metricsWith(counts: () => Promise<VideoJobCounts> = async () => ({}), now?: () => number): GatewayMetrics {
  return new GatewayMetrics({ videoJobCounts: counts, ...(now === undefined ? {} : { now }) });
}

async function scraped(metrics: GatewayMetrics): Promise<PrometheusSample[]> {
  return parsePrometheusText(await metrics.scrape());
}

describe('GatewayMetrics', () => {
  it('counts a call from its ledger entry: request, latency, tokens by kind and cost', async () => {
    const metrics = metricsWith();
    metrics.observeLedgerEntry(ledgerEntry({ model: 'sim-gpt', provider: 'sim', endpoint: 'chat', status: 200, durationMs: 1_500, costNanoUsd: 1_234_567_890n }));
    const samples = await scraped(metrics);

    expect(samplesOf(samples, 'switchyard_requests_total')).toEqual([
      { name: 'switchyard_requests_total', labels: { model: 'sim-gpt', provider: 'sim', endpoint: 'chat', status_class: '2xx' }, value: 1 },
    ]);
    const tokens = Object.fromEntries(samplesOf(samples, 'switchyard_tokens_total', { model: 'sim-gpt', provider: 'sim' }).map((sample) => [sample.labels.kind, sample.value]));
    expect(tokens).toEqual({ input_uncached: 10, cache_read: 3, cache_write: 2, output: 20, reasoning: 5 });
    expect(sumOf(samples, 'switchyard_cost_usd_total', { model: 'sim-gpt', provider: 'sim', endpoint: 'chat' })).toBeCloseTo(1.23456789, 12);

    const latency = { model: 'sim-gpt', endpoint: 'chat' };
    expect(sumOf(samples, 'switchyard_request_duration_seconds_count', latency)).toBe(1);
    expect(sumOf(samples, 'switchyard_request_duration_seconds_sum', latency)).toBe(1.5);
    expect(sumOf(samples, 'switchyard_request_duration_seconds_bucket', { ...latency, le: '1' })).toBe(0);
    expect(sumOf(samples, 'switchyard_request_duration_seconds_bucket', { ...latency, le: '2.5' })).toBe(1);
  });

  it('spans 50 ms to 300 s in its latency buckets, in seconds', async () => {
    const metrics = metricsWith();
    metrics.observeLedgerEntry(ledgerEntry({ durationMs: 240_000 }));
    const bounds = samplesOf(await scraped(metrics), 'switchyard_request_duration_seconds_bucket').map((sample) => sample.labels.le);
    expect(bounds[0]).toBe('0.05');
    expect(bounds).toContain('300');
    expect(bounds.at(-1)).toBe('+Inf');
    expect(sumOf(await scraped(metrics), 'switchyard_request_duration_seconds_bucket', { le: '120' })).toBe(0);
    expect(sumOf(await scraped(metrics), 'switchyard_request_duration_seconds_bucket', { le: '300' })).toBe(1);
  });

  it('labels statuses by class only', async () => {
    const metrics = metricsWith();
    for (const [index, status] of [200, 201, 204, 400, 404, 499, 502, 504].entries()) {
      metrics.observeLedgerEntry(ledgerEntry({ requestId: `req_${index}`, status }));
    }
    const requests = samplesOf(await scraped(metrics), 'switchyard_requests_total');
    expect(Object.fromEntries(requests.map((sample) => [sample.labels.status_class, sample.value]))).toEqual({ '2xx': 3, '4xx': 3, '5xx': 2 });
  });

  it('keeps one series however many requests and keys there are: neither is a label', async () => {
    const metrics = metricsWith();
    for (let index = 0; index < 500; index++) {
      metrics.observeLedgerEntry(ledgerEntry({ requestId: `req_${index}`, keyId: `key_${index}`, upstreamModel: `upstream-${index}` }));
    }
    const samples = await scraped(metrics);
    expect(samplesOf(samples, 'switchyard_requests_total')).toHaveLength(1);
    expect(sumOf(samples, 'switchyard_requests_total')).toBe(500);
    expect(samplesOf(samples, 'switchyard_tokens_total')).toHaveLength(5);
    for (const sample of samples) {
      expect(Object.keys(sample.labels)).not.toContain('key');
      expect(Object.values(sample.labels).some((value) => value.startsWith('upstream-') || value.startsWith('req_'))).toBe(false);
    }
  });

  it('stops adding model label values past its cap, counting the rest as other', async () => {
    const metrics = metricsWith();
    for (let index = 0; index < 1_010; index++) metrics.observeLedgerEntry(ledgerEntry({ requestId: `req_${index}`, model: `model-${index}` }));
    const requests = samplesOf(await scraped(metrics), 'switchyard_requests_total');
    expect(requests).toHaveLength(1_001);
    expect(sumOf(requests, 'switchyard_requests_total', { model: 'other' })).toBe(10);
    expect(sumOf(requests, 'switchyard_requests_total')).toBe(1_010);
  });

  it('counts images, video seconds and their cost without token series for empty buckets', async () => {
    const metrics = metricsWith();
    metrics.observeLedgerEntry(ledgerEntry({ ...mediaOnly, model: 'sim-image', endpoint: 'images', images: 2, costNanoUsd: 80_000_000n }));
    metrics.observeLedgerEntry(ledgerEntry({ ...mediaOnly, requestId: 'video_1', model: 'sim-video', endpoint: 'videos', videoSeconds: 4, costNanoUsd: 400_000_000n }));
    const samples = await scraped(metrics);
    expect(sumOf(samples, 'switchyard_images_total', { model: 'sim-image' })).toBe(2);
    expect(sumOf(samples, 'switchyard_video_seconds_total', { model: 'sim-video' })).toBe(4);
    expect(sumOf(samples, 'switchyard_cost_usd_total', { endpoint: 'images' })).toBeCloseTo(0.08, 12);
    expect(sumOf(samples, 'switchyard_cost_usd_total', { endpoint: 'videos' })).toBeCloseTo(0.4, 12);
    expect(samplesOf(samples, 'switchyard_tokens_total')).toEqual([]);
  });

  it('counts failed upstream attempts by provider, model and error code', async () => {
    const metrics = metricsWith();
    metrics.observeUpstreamError('primary', 'sim-gpt', 'upstream_unavailable');
    metrics.observeUpstreamError('primary', 'sim-gpt', 'upstream_unavailable');
    metrics.observeUpstreamError('backup', 'sim-gpt', 'upstream_timeout');
    const errors = samplesOf(await scraped(metrics), 'switchyard_upstream_errors_total');
    expect(errors).toEqual(
      expect.arrayContaining([
        { name: 'switchyard_upstream_errors_total', labels: { provider: 'primary', model: 'sim-gpt', code: 'upstream_unavailable' }, value: 2 },
        { name: 'switchyard_upstream_errors_total', labels: { provider: 'backup', model: 'sim-gpt', code: 'upstream_timeout' }, value: 1 },
      ]),
    );
    expect(errors).toHaveLength(2);
  });

  it("reports the upstream cap slots this instance holds per capped provider, read at scrape time", async () => {
    const held = new Map([['vendor', 2]]);
    const metrics = new GatewayMetrics({ videoJobCounts: async () => ({}), upstreamSlotsHeld: () => held });
    expect(samplesOf(await scraped(metrics), 'switchyard_upstream_slots_in_use')).toEqual([{ name: 'switchyard_upstream_slots_in_use', labels: { provider: 'vendor' }, value: 2 }]);
    held.set('vendor', 0);
    held.set('other-vendor', 1);
    const samples = await scraped(metrics);
    expect(sumOf(samples, 'switchyard_upstream_slots_in_use', { provider: 'vendor' })).toBe(0);
    expect(sumOf(samples, 'switchyard_upstream_slots_in_use', { provider: 'other-vendor' })).toBe(1);
  });

  it('holds a stream in flight until its completion settles, delivered or failed', async () => {
    const metrics = metricsWith();
    const inFlight = async () => sumOf(await scraped(metrics), 'switchyard_streams_in_flight', { endpoint: 'chat' });
    expect(await inFlight()).toBe(0);
    let deliver!: () => void;
    let fail!: (error: Error) => void;
    metrics.trackStream('chat', new Promise<void>((resolve) => (deliver = resolve)));
    metrics.trackStream('chat', new Promise<void>((_resolve, reject) => (fail = reject)));
    expect(await inFlight()).toBe(2);
    deliver();
    fail(new Error('cut'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await inFlight()).toBe(0);
  });

  it('reports video jobs by state at scrape time, every state present, counted at most once per period', async () => {
    let clock = 1_000;
    const counts = vi.fn(async (): Promise<VideoJobCounts> => ({ queued: 2, completed: 5 }));
    const metrics = metricsWith(counts, () => clock);
    const jobs = async () => Object.fromEntries(samplesOf(await scraped(metrics), 'switchyard_video_jobs').map((sample) => [sample.labels.state, sample.value]));
    expect(await jobs()).toEqual({ queued: 2, in_progress: 0, completed: 5, failed: 0, cancelled: 0 });
    counts.mockResolvedValue({ queued: 1, completed: 6 });
    clock += 4_000;
    expect((await jobs()).queued).toBe(2);
    expect(counts).toHaveBeenCalledTimes(1);
    clock += 1_500;
    expect(await jobs()).toEqual({ queued: 1, in_progress: 0, completed: 6, failed: 0, cancelled: 0 });
    expect(counts).toHaveBeenCalledTimes(2);
  });

  it('still answers a scrape when counting the jobs fails, and asks again next time', async () => {
    const counts = vi.fn(async (): Promise<VideoJobCounts> => {
      throw new Error('database gone');
    });
    const metrics = metricsWith(counts);
    const samples = await scraped(metrics);
    expect(samplesOf(samples, 'switchyard_requests_total')).toEqual([]);
    counts.mockResolvedValue({ failed: 3 });
    expect(sumOf(await scraped(metrics), 'switchyard_video_jobs', { state: 'failed' })).toBe(3);
    expect(counts).toHaveBeenCalledTimes(2);
  });

  it('keeps each gateway in its own registry, with process metrics and every name prefixed', async () => {
    const first = metricsWith();
    const second = metricsWith();
    first.observeLedgerEntry(ledgerEntry());
    expect(sumOf(await scraped(first), 'switchyard_requests_total')).toBe(1);
    const samples = await scraped(second);
    expect(sumOf(samples, 'switchyard_requests_total')).toBe(0);
    expect(samplesOf(samples, 'switchyard_process_cpu_user_seconds_total')).toHaveLength(1);
    expect(samplesOf(samples, 'switchyard_nodejs_heap_size_used_bytes')).toHaveLength(1);
    expect(samples.filter((sample) => !sample.name.startsWith('switchyard_'))).toEqual([]);
    expect(second.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('shows cost as the dollar amount nearest the exact nano-USD total, however many calls it sums', async () => {
    const metrics = metricsWith();
    // 0.1 added ten times as floats is 0.9999999999999999; the ledger's total is exactly one dollar.
    for (let index = 0; index < 10; index++) metrics.observeLedgerEntry(ledgerEntry({ requestId: `req_${index}`, costNanoUsd: 100_000_000n }));
    for (let index = 0; index < 3; index++) metrics.observeLedgerEntry(ledgerEntry({ requestId: `big_${index}`, model: 'big', costNanoUsd: 3_000_000_000_000_000_001n }));
    const samples = await scraped(metrics);
    expect(sumOf(samples, 'switchyard_cost_usd_total', { model: 'gpt-4o-mini' })).toBe(1);
    expect(sumOf(samples, 'switchyard_cost_usd_total', { model: 'big' })).toBe(9_000_000_000.000000003);
  });

  it('sums latency in whole milliseconds: ten calls of 100 ms are exactly one second', async () => {
    const metrics = metricsWith();
    for (let index = 0; index < 10; index++) metrics.observeLedgerEntry(ledgerEntry({ requestId: `req_${index}`, durationMs: 100 }));
    expect(sumOf(await scraped(metrics), 'switchyard_request_duration_seconds_sum')).toBe(1);
  });

  it("shows every call's figures as prom-client's own counters and histogram would, observing entry by entry", async () => {
    const entries: LedgerEntry[] = [];
    const durations = [0, -5, 49, 50, 51, 100, 999, 1_000, 20_000, 299_999, 300_000, 300_001, 1_000_000];
    for (let index = 0; index < 400; index++) {
      entries.push(
        ledgerEntry({
          requestId: `req_${index}`,
          model: ['gpt-4o-mini', 'claude-sonnet', 'sim-image'][index % 3]!,
          provider: index % 7 === 0 ? 'backup' : 'primary',
          endpoint: ['chat', 'messages', 'responses', 'images'][index % 4]!,
          status: [200, 200, 200, 499, 429, 502, 200][index % 7]!,
          inputUncached: index % 5 === 0 ? 0 : index,
          cacheRead: index % 11,
          cacheWrite: 0,
          output: index % 3 === 0 ? 0 : 2 * index,
          reasoning: index % 13 === 0 ? index : 0,
          images: index % 9 === 0 ? 2 : 0,
          videoSeconds: index % 17 === 0 ? 4 : 0,
          costNanoUsd: index % 6 === 0 ? 0n : BigInt(index) * 1_000_000n,
          durationMs: durations[index % durations.length]!,
        }),
      );
    }
    const metrics = metricsWith();
    for (const entry of entries) metrics.observeLedgerEntry(entry);
    const actual = await scraped(metrics);
    const expected = parsePrometheusText(await observedOneByOne(entries));
    const ledgerFed = (samples: readonly PrometheusSample[]) =>
      samples.filter((sample) => expected.some((reference) => reference.name === sample.name)).map((sample) => JSON.stringify(sample)).sort();
    const inexact = (sample: PrometheusSample) => sample.name === 'switchyard_cost_usd_total' || sample.name === 'switchyard_request_duration_seconds_sum';
    expect(ledgerFed(actual.filter((sample) => !inexact(sample)))).toEqual(ledgerFed(expected.filter((sample) => !inexact(sample))));
    // Float sums: one side adds each call's figure, the other divides the exact total once.
    const sums = (samples: readonly PrometheusSample[]) => samples.filter(inexact).map((sample) => ({ key: JSON.stringify([sample.name, sample.labels]), value: sample.value }));
    const expectedSums = new Map(sums(expected).map(({ key, value }) => [key, value]));
    expect(sums(actual).map(({ key }) => key).sort()).toEqual([...expectedSums.keys()].sort());
    for (const { key, value } of sums(actual)) expect(value).toBeCloseTo(expectedSums.get(key)!, 9);
  });
});

/** The ledger-fed metrics as prom-client's own Counter and Histogram hold them, told of each entry in turn. */
async function observedOneByOne(entries: readonly LedgerEntry[]): Promise<string> {
  const registers = [new Registry()];
  const requests = new Counter({ name: 'switchyard_requests_total', help: '-', labelNames: ['model', 'provider', 'endpoint', 'status_class'], registers });
  const latency = new Histogram({ name: 'switchyard_request_duration_seconds', help: '-', labelNames: ['model', 'endpoint'], buckets: [...latencyBucketsSeconds], registers });
  const tokens = new Counter({ name: 'switchyard_tokens_total', help: '-', labelNames: ['model', 'provider', 'kind'], registers });
  const cost = new Counter({ name: 'switchyard_cost_usd_total', help: '-', labelNames: ['model', 'provider', 'endpoint'], registers });
  const images = new Counter({ name: 'switchyard_images_total', help: '-', labelNames: ['model', 'provider'], registers });
  const videoSeconds = new Counter({ name: 'switchyard_video_seconds_total', help: '-', labelNames: ['model', 'provider'], registers });
  for (const entry of entries) {
    const { model, provider, endpoint } = entry;
    requests.inc({ model, provider, endpoint, status_class: statusClass(entry.status) });
    latency.observe({ model, endpoint }, Math.max(0, entry.durationMs) / 1000);
    const kinds = { input_uncached: entry.inputUncached, cache_read: entry.cacheRead, cache_write: entry.cacheWrite, output: entry.output, reasoning: entry.reasoning };
    for (const [kind, count] of Object.entries(kinds)) if (count > 0) tokens.inc({ model, provider, kind }, count);
    if (entry.costNanoUsd > 0n) cost.inc({ model, provider, endpoint }, nanoUsdToUsd(entry.costNanoUsd));
    if (entry.images > 0) images.inc({ model, provider }, entry.images);
    if (entry.videoSeconds > 0) videoSeconds.inc({ model, provider }, entry.videoSeconds);
  }
  return registers[0]!.metrics();
}
