import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../logging/logger.js';
import type { VideoJobStatus } from '../media/videos/video-job-store.js';
import type { LedgerEntry } from '../metering/ledger-entry.js';
import { circuitStates, type RouteCircuit } from '../routing/circuit-breaker.js';
import { BoundedLabelValues } from './bounded-label-values.js';
import { CachedValue } from './cached-value.js';
import { latencyBucketsSeconds } from './latency-buckets.js';
import { nanoUsdToUsd } from './nano-usd-to-usd.js';
import { LedgerSeriesSums, tokenKinds, type LedgerSeries } from './ledger-series-sums.js';
import { SummedHistogram, type HistogramSums } from './summed-histogram.js';

export type VideoJobCounts = Readonly<Partial<Record<VideoJobStatus, number>>>;

export interface GatewayMetricsOptions {
  /** How many jobs are in each state now (`storage.videoJobs.countByStatus`). */
  readonly videoJobCounts: () => Promise<VideoJobCounts>;
  /** How long one count of the jobs serves scrapes, so scrapers never hammer the database. */
  readonly videoJobCountsTtlMs?: number;
  /** The slots of upstream concurrency caps this process holds now, by provider (read when scraped). */
  readonly upstreamSlotsHeld?: () => ReadonlyMap<string, number>;
  /** Every configured route's circuit breaker now. */
  readonly routeCircuits?: () => readonly RouteCircuit[];
  readonly logger?: Logger;
  readonly now?: () => number;
}

const videoJobStates: readonly VideoJobStatus[] = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'];

/**
 * The gateway's Prometheus metrics, in a registry of its own (several gateways may run in one
 * process; the global default registry would mix them). Calls are counted from ledger entries, so
 * the metrics and the ledger agree; label values are public catalog ids, configured provider names,
 * endpoint families, registry error codes and status classes — never strings a client sent.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly models = new BoundedLabelValues(1_000);
  private readonly providers = new BoundedLabelValues(200);
  private readonly endpoints = new BoundedLabelValues(50);
  private readonly errorCodes = new BoundedLabelValues(100);
  private readonly upstreamModels = new BoundedLabelValues(1_000);
  /** What every ledger entry so far adds up to: the calls, latency, tokens, media and cost metrics are set from it when scraped. */
  private readonly ledgerSeries = new LedgerSeriesSums(this.models, this.providers, this.endpoints);
  private readonly upstreamErrors: Counter<'provider' | 'model' | 'code'>;
  private readonly streamsInFlight: Gauge<'endpoint'>;
  private readonly connectionsRefused: Counter;

  constructor(options: GatewayMetricsOptions) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'switchyard_' });
    const ledgerSeries = (): Iterable<LedgerSeries> => this.ledgerSeries.series();
    const requests: Counter<'model' | 'provider' | 'endpoint' | 'status_class'> = new Counter({
      name: 'switchyard_requests_total',
      help: 'Metered calls (one per ledger entry), by public model, provider, endpoint family and HTTP status class.',
      labelNames: ['model', 'provider', 'endpoint', 'status_class'],
      registers,
      collect: () => setCounter(requests, ledgerSeries(), (series) => ({ model: series.model, provider: series.provider, endpoint: series.endpoint, status_class: series.statusClass }), (series) => series.requests),
    });
    this.registry.registerMetric(
      new SummedHistogram(
        'switchyard_request_duration_seconds',
        'Time from the start of a metered call to its end (for a video job, from submit to its end).',
        latencyBucketsSeconds,
        () => latencyByModelAndEndpoint(ledgerSeries()),
      ).asMetric(),
    );
    const tokens: Counter<'model' | 'provider' | 'kind'> = new Counter({
      name: 'switchyard_tokens_total',
      help: 'Tokens by disjoint bucket (output excludes reasoning), as the ledger records them.',
      labelNames: ['model', 'provider', 'kind'],
      registers,
      collect: () => {
        tokens.reset();
        const byModel = sumsByLabels(
          ledgerSeries(),
          (series) => ({ model: series.model, provider: series.provider }),
          (series) => series.tokens,
          [] as readonly number[],
          (total, added) => added.map((count, index) => (total[index] ?? 0) + count),
        );
        for (const { labels, sum } of byModel) {
          tokenKinds.forEach(([kind], index) => {
            const count = sum[index] ?? 0;
            if (count > 0) tokens.inc({ ...labels, kind }, count);
          });
        }
      },
    });
    const cost: Counter<'model' | 'provider' | 'endpoint'> = new Counter({
      name: 'switchyard_cost_usd_total',
      help: 'Cost charged, in USD.',
      labelNames: ['model', 'provider', 'endpoint'],
      registers,
      collect: () => setCostCounter(cost, ledgerSeries()),
    });
    const images: Counter<'model' | 'provider'> = new Counter({
      name: 'switchyard_images_total',
      help: 'Images delivered and charged.',
      labelNames: ['model', 'provider'],
      registers,
      collect: () => setCounter(images, ledgerSeries(), (series) => ({ model: series.model, provider: series.provider }), (series) => series.images),
    });
    const videoSeconds: Counter<'model' | 'provider'> = new Counter({
      name: 'switchyard_video_seconds_total',
      help: 'Seconds of video delivered and charged.',
      labelNames: ['model', 'provider'],
      registers,
      collect: () => setCounter(videoSeconds, ledgerSeries(), (series) => ({ model: series.model, provider: series.provider }), (series) => series.videoSeconds),
    });
    this.upstreamErrors = new Counter({
      name: 'switchyard_upstream_errors_total',
      help: 'Failed upstream attempts (each retry and fallback counts), by provider, public model and error code.',
      labelNames: ['provider', 'model', 'code'],
      registers,
    });
    this.connectionsRefused = new Counter({
      name: 'switchyard_connections_refused_total',
      help: 'Client connections closed on arrival because server.max_connections were open.',
      registers,
    });
    this.streamsInFlight = new Gauge({ name: 'switchyard_streams_in_flight', help: 'Streamed answers being delivered now.', labelNames: ['endpoint'], registers });
    for (const endpoint of ['chat', 'responses', 'messages', 'images']) this.streamsInFlight.set({ endpoint }, 0);
    const routeCircuits = options.routeCircuits;
    const providers = this.providers;
    const upstreamModels = this.upstreamModels;
    const circuitState: Gauge<'provider' | 'upstream_model' | 'state'> = new Gauge({
      name: 'switchyard_route_circuit_state',
      help: "Each route's circuit breaker (in this process): 1 for the state it is in, 0 for the others.",
      labelNames: ['provider', 'upstream_model', 'state'],
      registers,
      collect() {
        circuitState.reset();
        for (const circuit of routeCircuits?.() ?? []) {
          const labels = { provider: providers.value(circuit.provider), upstream_model: upstreamModels.value(circuit.upstreamModel) };
          for (const state of circuitStates) circuitState.set({ ...labels, state }, circuit.state === state ? 1 : 0);
        }
      },
    });
    const jobCounts = new CachedValue(options.videoJobCounts, options.videoJobCountsTtlMs ?? 5_000, options.now);
    const logger = options.logger;
    const videoJobs: Gauge<'state'> = new Gauge({
      name: 'switchyard_video_jobs',
      help: 'Video jobs in each state (deleted jobs left out), counted at most every few seconds.',
      labelNames: ['state'],
      registers,
      // Counted when scraped, not kept up to date: jobs change state in every instance.
      async collect() {
        try {
          const counts = await jobCounts.get();
          for (const state of videoJobStates) videoJobs.set({ state }, counts[state] ?? 0);
        } catch (error) {
          // The scrape still answers, with the last counts; the readiness check reports the database.
          logger?.warn({ err: error }, 'counting video jobs for metrics failed');
        }
      },
    });
    const slotsHeld = options.upstreamSlotsHeld;
    const capped = this.providers;
    if (slotsHeld !== undefined) {
      const upstreamSlots: Gauge<'provider'> = new Gauge({
        name: 'switchyard_upstream_slots_in_use',
        help: "Slots of a provider's max_concurrency held by this instance's calls now (sum over instances for the shared total); capped providers only.",
        labelNames: ['provider'],
        registers,
        // Read when scraped: calls take and free slots without touching the metrics.
        collect() {
          for (const [provider, held] of slotsHeld()) upstreamSlots.set({ provider: capped.value(provider) }, held);
        },
      });
    }
  }

  /**
   * Everything known from one ledger entry: the call, its latency, tokens, media and cost. Summed into
   * its series here (a few additions); the metrics show the sums from the next scrape on.
   */
  observeLedgerEntry(entry: LedgerEntry): void {
    this.ledgerSeries.add(entry);
  }

  /** One failed upstream attempt; `model` is the public model id, `code` a registry error code. */
  observeUpstreamError(provider: string, model: string, code: string): void {
    this.upstreamErrors.inc({ provider: this.providers.value(provider), model: this.models.value(model), code: this.errorCodes.value(code) });
  }

  /** One client connection closed on arrival: the instance held `server.max_connections` already. */
  observeRefusedConnection(): void {
    this.connectionsRefused.inc();
  }

  /** Counts a streamed answer as in flight until `completion` settles (delivered or dropped). */
  trackStream(endpoint: string, completion: Promise<unknown>): void {
    const labels = { endpoint: this.endpoints.value(endpoint) };
    this.streamsInFlight.inc(labels);
    const done = (): void => {
      this.streamsInFlight.dec(labels);
    };
    completion.then(done, done);
  }

  /** The Prometheus text exposition of every metric. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  /** `text/plain; version=0.0.4; charset=utf-8`. */
  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * Sets `counter` to the sums of `value` over the ledger series, by the labels `labelsOf` picks. A label
 * set whose sum is 0 is left out, as it was when the counter was only ever incremented by what a call
 * added: a metric shows a series once something was counted in it.
 */
function setCounter<Label extends string>(
  counter: Counter<Label>,
  series: Iterable<LedgerSeries>,
  labelsOf: (series: LedgerSeries) => Record<Label, string>,
  value: (series: LedgerSeries) => number,
): void {
  counter.reset();
  for (const { labels, sum } of sumsByLabels(series, labelsOf, value, 0, (total, added) => total + added)) {
    if (sum > 0) counter.inc(labels, sum);
  }
}

/** Cost is summed in exact nano-USD and turned into dollars once: the counter holds the float nearest the exact total. */
function setCostCounter(counter: Counter<'model' | 'provider' | 'endpoint'>, series: Iterable<LedgerSeries>): void {
  counter.reset();
  const byLabels = sumsByLabels(series, (one) => ({ model: one.model, provider: one.provider, endpoint: one.endpoint }), (one) => one.costNanoUsd, 0n, (total, added) => total + added);
  for (const { labels, sum } of byLabels) {
    if (sum > 0n) counter.inc(labels, nanoUsdToUsd(sum));
  }
}

function latencyByModelAndEndpoint(series: Iterable<LedgerSeries>): HistogramSums[] {
  const byLabels = new Map<string, { labels: Record<string, string>; buckets: number[]; durationMs: number; count: number }>();
  for (const one of series) {
    const id = `${one.model}\u0000${one.endpoint}`;
    let sums = byLabels.get(id);
    if (sums === undefined) {
      sums = { labels: { model: one.model, endpoint: one.endpoint }, buckets: new Array<number>(one.latencyBuckets.length).fill(0), durationMs: 0, count: 0 };
      byLabels.set(id, sums);
    }
    one.latencyBuckets.forEach((calls, index) => (sums.buckets[index]! += calls));
    sums.durationMs += one.durationMs;
    sums.count += one.requests;
  }
  return [...byLabels.values()].map((sums) => ({ labels: sums.labels, buckets: sums.buckets, sum: sums.durationMs / 1000, count: sums.count }));
}

/** The sums of `value` over the series, grouped by the labels `labelsOf` picks, in the order the groups first appear. */
function sumsByLabels<Label extends string, Sum>(
  series: Iterable<LedgerSeries>,
  labelsOf: (series: LedgerSeries) => Record<Label, string>,
  value: (series: LedgerSeries) => Sum,
  zero: Sum,
  add: (total: Sum, added: Sum) => Sum,
): { labels: Record<Label, string>; sum: Sum }[] {
  const byLabels = new Map<string, { labels: Record<Label, string>; sum: Sum }>();
  for (const one of series) {
    const labels = labelsOf(one);
    const id = Object.values<string>(labels).join('\u0000');
    const group = byLabels.get(id);
    if (group === undefined) byLabels.set(id, { labels, sum: add(zero, value(one)) });
    else group.sum = add(group.sum, value(one));
  }
  return [...byLabels.values()];
}
