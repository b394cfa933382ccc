import { describe, expect, it } from 'vitest';
import { renderQuickTable, spreadOf, type QuickResults, type QuickRun } from '../../bench/lib/quick-table.mjs';

/**
 * `npm run bench:quick` prints one table from the runs it measured: the median of each figure with
 * its spread over the repetitions, the gateway beside the node proxy, and their ratio or the time
 * the gateway adds. These tests feed it measured figures and read the table; nothing is timed.
 */

const settings = { concurrency: 64, streamConcurrency: 16, reps: 3, duration: 3, warmup: 1 };
const meta = { date: '2026-11-27T16:00:00.000Z', commit: 'abc1234', cpus: 2, cpu_model: 'Test CPU', node: 'v20', pinning: 'pinned', loadavg_start: '0.10 0.10 0.10' };

/** One run per repetition of `scenario` on `target`, `field` taking each of `values` in turn. */
function runs(target: QuickRun['target'], scenario: string, fields: Record<string, number[]>, extra: Record<string, unknown> = {}): QuickRun[] {
  const count = Object.values(fields)[0]?.length ?? 0;
  return Array.from({ length: count }, (_unused, index) => ({
    target, scenario, rep: index + 1, foreign_cpu_pct: 2, ...extra,
    ...Object.fromEntries(Object.entries(fields).map(([field, values]) => [field, values[index]])),
  }));
}

/** A full quick run: every figure measured three times on both targets. */
function measured(overrides: Partial<QuickResults> = {}): QuickResults {
  return {
    meta, settings, availability: {}, idle: { nodeproxy_fresh_kb: 44 * 1024 },
    start: { starts: [{ ms: 700, kb: 100 * 1024 }, { ms: 650, kb: 110 * 1024 }, { ms: 800, kb: 105 * 1024 }] },
    runs: [
      ...runs('gateway', 'chat_c64', { rps: [2000, 1800, 2300], sut_cpu_us_per_request: [150, 160, 140], sut_peak_rss_kb: [150 * 1024, 160 * 1024, 155 * 1024] }),
      ...runs('nodeproxy', 'chat_c64', { rps: [2500, 2400, 2875], sut_cpu_us_per_request: [100, 100, 100], sut_peak_rss_kb: [80 * 1024, 80 * 1024, 80 * 1024] }),
      ...runs('gateway', 'chat_to_anthropic_c64', { rps: [1000, 3000, 2000], sut_cpu_us_per_request: [200, 210, 190] }),
      ...runs('nodeproxy', 'chat_to_anthropic_c64', { rps: [1000, 3000, 4000], sut_cpu_us_per_request: [100, 105, 95] }),
      ...runs('gateway', 'chat_c1', { lat_p50_us: [400, 420, 380] }),
      ...runs('nodeproxy', 'chat_c1', { lat_p50_us: [300, 310, 290] }),
      ...runs('gateway', 'chat_stream', { ttfb_p50_ms: [1.9, 2.1, 2.0] }),
      ...runs('nodeproxy', 'chat_stream', { ttfb_p50_ms: [1.2, 1.3, 1.25] }),
    ],
    ...overrides,
  };
}

/** The table row whose figure starts with `figure`. */
function row(table: string, figure: string): string {
  const line = table.split('\n').find((text) => text.startsWith(`| ${figure}`));
  if (line === undefined) throw new Error(`no row "${figure}" in:\n${table}`);
  return line;
}

describe('the quick check table', () => {
  it('shows each figure as the median over the repetitions with its min–max spread, beside the node proxy', () => {
    const table = renderQuickTable(measured());
    expect(table).toContain('| figure | gateway | node proxy | ratio/added |');
    expect(row(table, 'chat passthrough, 64 connections: req/s')).toBe('| chat passthrough, 64 connections: req/s | 2000 (1800–2300) | 2500 (2400–2875) | 0.80 × (0.75–0.80) |');
    expect(row(table, 'chat passthrough, 64 connections: CPU µs per request')).toBe('| chat passthrough, 64 connections: CPU µs per request | 150 (140–160) | 100 | 0.67 × (0.63–0.71) |');
    expect(row(table, 'chat → Anthropic, translated, 64 connections: CPU µs per request')).toBe('| chat → Anthropic, translated, 64 connections: CPU µs per request | 200 (190–210) | 100 (95–105) | 0.50 × |');
  });

  it('divides the gateway by the node proxy repetition by repetition, not median by median', () => {
    // Per repetition 1.00, 1.00 and 0.50; the medians alone (2000 ÷ 3000) would say 0.67.
    expect(row(renderQuickTable(measured()), 'chat → Anthropic, translated, 64 connections: req/s')).toBe('| chat → Anthropic, translated, 64 connections: req/s | 2000 (1000–3000) | 3000 (1000–4000) | 1.00 × (0.50–1.00) |');
  });

  it('gives latency and time to first byte in ms, with the time the gateway adds', () => {
    const table = renderQuickTable(measured());
    expect(row(table, 'chat passthrough, 1 connection: p50 latency (ms)')).toBe('| chat passthrough, 1 connection: p50 latency (ms) | 0.40 (0.38–0.42) | 0.30 (0.29–0.31) | +0.10 ms (+0.09–+0.11) |');
    expect(row(table, 'chat passthrough stream, 16 streams: p50 time to first byte (ms)')).toBe('| chat passthrough stream, 16 streams: p50 time to first byte (ms) | 2.00 (1.90–2.10) | 1.25 (1.20–1.30) | +0.75 ms (+0.70–+0.80) |');
  });

  it('gives the memory and the start from the starts and the runs at 64 connections', () => {
    const table = renderQuickTable(measured());
    expect(row(table, 'RSS idle, fresh (MB)')).toBe('| RSS idle, fresh (MB) | 105 (100–110) | 44 | – |');
    expect(row(table, 'RSS peak at 64 connections, chat passthrough (MB)')).toBe('| RSS peak at 64 connections, chat passthrough (MB) | 155 (150–160) | 80 | – |');
    expect(row(table, 'start to first answer (ms)')).toBe('| start to first answer (ms) | 700 (650–800) | – | – |');
  });

  it('prints the foreign CPU and no warning when the machine was quiet', () => {
    const table = renderQuickTable(measured());
    expect(table).toContain("Foreign CPU (other processes' share, % of one core): median 2.0 %, max 2.0 % over 24 runs");
    expect(table).not.toContain('WARNING');
  });

  it('warns when other processes took the machine during the runs', () => {
    const results = measured();
    results.runs = results.runs.map((run, index) => ({ ...run, foreign_cpu_pct: index % 2 === 0 ? 60 : 5 }));
    const table = renderQuickTable(results);
    expect(table).toContain('median 60.0 %, max 60.0 % over 24 runs');
    expect(table).toContain('WARNING: the machine was busy (12 of 24 runs with more than 10 % of a core taken by other processes)');
  });

  it('warns about failed requests and says what could not be measured', () => {
    const results = measured({ availability: { gateway: 'not available: did not start (port in use)' } });
    results.runs = results.runs.filter((run) => run.target === 'nodeproxy').map((run) => ({ ...run, err_status: 3 }));
    const table = renderQuickTable(results);
    expect(row(table, 'chat passthrough, 64 connections: req/s')).toBe('| chat passthrough, 64 connections: req/s | – | 2500 (2400–2875) | – |');
    expect(table).toContain('WARNING: 36 requests failed during the measured runs');
    expect(table).toContain('Not measured: gateway: not available: did not start (port in use)');
  });

  it('takes the median and the spread of the finite values only', () => {
    expect(spreadOf([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(spreadOf([5, null, Number.NaN, undefined])).toEqual({ median: 5, min: 5, max: 5 });
    expect(spreadOf([null])).toBeNull();
  });
});
