import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { getJson, query } from '../api.js';
import { showUsd, sumUsd } from '../money.js';
import { TimeChart } from '../parts/chart.js';
import { useKeyNames } from '../parts/key-names.js';
import { ErrorNotice } from '../parts/notice.js';
import { loadSeries, ranges, type Range } from '../parts/series.js';
import { showNumber } from '../parts/time.js';
import { useLoad } from '../parts/use-load.js';
import type { UsageGroup } from '../types.js';

const dayMs = 86_400_000;
const formatUsdAxis = (value: number) => `$${value.toPrecision(3).replace(/\.?0+$/, '')}`;
const formatMs = (value: number) => `${Math.round(value)} ms`;

/**
 * Requests, spend, errors and latency over the last hour, day or 30 days, and the models and keys
 * that spent most. Calls only `/admin/usage/series` and `/admin/usage`: aggregates, never rows, so
 * it stays quick over any number of ledger entries.
 */
export function OverviewPage() {
  const keyName = useKeyNames();
  const [range, setRange] = useState<Range>('day');
  const loaded = useLoad(
    async () => {
      // Usage counts whole UTC buckets: hours for the last hour and day (the top lists then cover
      // the range to the hour), days for 30 days (the days the range touches).
      const step = ranges[range].spanMs <= dayMs ? 'hour' : 'day';
      const since = new Date(Date.now() - ranges[range].spanMs).toISOString();
      const [requests, cost, errors, p50, p95, models, keys] = await Promise.all([
        loadSeries('requests', range),
        loadSeries('cost', range),
        loadSeries('errors', range),
        loadSeries('latency_p50', range),
        loadSeries('latency_p95', range),
        getJson<{ data: UsageGroup[] }>(`/admin/usage${query({ group_by: 'model', step, since })}`),
        getJson<{ data: UsageGroup[] }>(`/admin/usage${query({ group_by: 'key', step, since })}`),
      ]);
      return { requests, cost, errors, p50, p95, models: top(models.data), keys: top(keys.data) };
    },
    [range],
    10_000,
  );
  const data = loaded.data;
  const total = (values: (number | null)[]) => values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  return (
    <section>
      <div class="toolbar" role="group" aria-label="Range">
        {(Object.keys(ranges) as Range[]).map((name) => (
          <button key={name} type="button" aria-pressed={range === name} onClick={() => setRange(name)}>
            {ranges[name].label}
          </button>
        ))}
      </div>
      <ErrorNotice error={loaded.error} />
      {data === undefined ? (
        <p class="hint">Loading…</p>
      ) : (
        <>
          <div class="tiles">
            <Tile label="Requests" value={showNumber(total(data.requests.values))} />
            <Tile label="Spend" value={showUsd(sumUsd(data.cost.raw.map((value) => String(value ?? '0'))))} testId="overview-spend" />
            <Tile label="Errors" value={showNumber(total(data.errors.values))} />
            <Tile label="Latency p95 (latest)" value={latest(data.p95.values)} />
          </div>
          <div class="charts">
            <Figure title="Requests">
              <TimeChart label="Requests" times={data.requests.times} values={data.requests.values} bars />
            </Figure>
            <Figure title="Spend (USD)">
              <TimeChart label="Spend" times={data.cost.times} values={data.cost.values} format={formatUsdAxis} bars />
            </Figure>
            <Figure title="Errors">
              <TimeChart label="Errors" times={data.errors.times} values={data.errors.values} bars />
            </Figure>
            <Figure title="Latency p50 (ms)">
              <TimeChart label="Latency p50" times={data.p50.times} values={data.p50.values} format={formatMs} />
            </Figure>
          </div>
          <div class="columns">
            <TopList title="Top models" rows={data.models.map((group) => ({ name: group.model ?? '', id: group.model ?? '', group }))} />
            <TopList title="Top keys" rows={data.keys.map((group) => ({ name: keyName(group.key_id), id: group.key_id ?? '', group }))} />
          </div>
        </>
      )}
    </section>
  );
}

function top(groups: UsageGroup[]): UsageGroup[] {
  return [...groups].sort((left, right) => Number(right.cost_usd) - Number(left.cost_usd) || right.requests - left.requests).slice(0, 5);
}

function latest(values: (number | null)[]): string {
  const value = [...values].reverse().find((item) => item !== null);
  return value === undefined || value === null ? '—' : formatMs(value);
}

function Tile(props: { label: string; value: string; testId?: string }) {
  return (
    <div class="tile">
      <span class="tile-label">{props.label}</span>
      <span class="tile-value" data-testid={props.testId}>
        {props.value}
      </span>
    </div>
  );
}

function Figure(props: { title: string; children: ComponentChildren }) {
  return (
    <figure class="panel">
      <figcaption>{props.title}</figcaption>
      {props.children}
    </figure>
  );
}

function TopList(props: { title: string; rows: { name: string; id: string; group: UsageGroup }[] }) {
  return (
    <div class="panel">
      <h2>{props.title}</h2>
      {props.rows.length === 0 ? (
        <p class="hint">No calls in this range.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" class="number">Requests</th>
              <th scope="col" class="number">Spend</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr key={row.id}>
                <td class="id" title={row.id}>
                  {row.name}
                </td>
                <td class="number">{showNumber(row.group.requests)}</td>
                <td class="number">{showUsd(row.group.cost_usd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
