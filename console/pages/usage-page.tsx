import { useState } from 'preact/hooks';
import { getJson, messageOf, query } from '../api.js';
import { showUsd, sumUsd, usdNumber } from '../money.js';
import { TimeChart } from '../parts/chart.js';
import { downloadFile } from '../parts/download.js';
import { useKeyNames } from '../parts/key-names.js';
import { ErrorNotice } from '../parts/notice.js';
import { showNumber } from '../parts/time.js';
import { useLoad } from '../parts/use-load.js';
import type { UsageGroup } from '../types.js';

type Grouping = 'day' | 'model' | 'key';
const groupings: Record<Grouping, string> = { day: 'By day', model: 'By model', key: 'By key' };

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

const idOf = (grouping: Grouping, group: UsageGroup) => (grouping === 'key' ? (group.key_id ?? '') : grouping === 'model' ? (group.model ?? '') : (group.day ?? ''));
const formatUsdAxis = (value: number) => `$${value.toPrecision(3)}`;
const tokensOf = (group: UsageGroup) => group.input_uncached + group.cache_read + group.cache_write + group.output + group.reasoning;

/** Every day of the range (the API lists only days with calls), so the chart's axis is the range asked for. */
function everyDay(since: string, until: string, rows: UsageGroup[]): { at: number; usd: number }[] {
  const byDay = new Map(rows.map((row) => [row.day ?? '', usdNumber(row.cost_usd)]));
  const days: { at: number; usd: number }[] = [];
  for (let at = Date.parse(`${since}T00:00:00Z`); at < Date.parse(`${until}T00:00:00Z`) && days.length < 1_000; at += 86_400_000) {
    days.push({ at: at / 1000, usd: byDay.get(new Date(at).toISOString().slice(0, 10)) ?? 0 });
  }
  return days;
}

/**
 * Spend and tokens by day, model or key over whole UTC days, from `/admin/usage` only; the export
 * buttons fetch the same range's ledger entries (`/admin/ledger`) when pressed.
 */
export function UsagePage() {
  const keyName = useKeyNames();
  const [grouping, setGrouping] = useState<Grouping>('day');
  const nameOf = (group: UsageGroup) => (grouping === 'key' ? keyName(group.key_id) : idOf(grouping, group));
  const [since, setSince] = useState(daysAgo(29));
  const [until, setUntil] = useState(daysAgo(-1));
  const [exportError, setExportError] = useState<string>();
  const range = { since: `${since}T00:00:00Z`, until: `${until}T00:00:00Z` };
  const usage = useLoad(() => getJson<{ data: UsageGroup[] }>(`/admin/usage${query({ group_by: grouping, ...range })}`), [grouping, since, until], 30_000);
  const rows = usage.data?.data ?? [];
  const days = grouping === 'day' ? everyDay(since, until, rows) : [];
  const exportAs = (format: 'csv' | 'jsonl') => {
    setExportError(undefined);
    downloadFile(`/admin/ledger${query({ format, ...range })}`, `ledger-${since}-${until}.${format}`).catch((error: unknown) => setExportError(messageOf(error)));
  };
  return (
    <section>
      <div class="toolbar">
        <div role="group" aria-label="Group by">
          {(Object.keys(groupings) as Grouping[]).map((name) => (
            <button key={name} type="button" aria-pressed={grouping === name} onClick={() => setGrouping(name)}>
              {groupings[name]}
            </button>
          ))}
        </div>
        <label class="inline">
          From <input type="date" value={since} onChange={(event) => setSince(event.currentTarget.value)} />
        </label>
        <label class="inline">
          to <input type="date" value={until} onChange={(event) => setUntil(event.currentTarget.value)} />
        </label>
        <button type="button" onClick={() => exportAs('csv')}>
          Export CSV
        </button>
        <button type="button" onClick={() => exportAs('jsonl')}>
          Export JSONL
        </button>
      </div>
      <ErrorNotice error={usage.error ?? exportError} />
      {grouping === 'day' && days.length > 0 ? (
        <figure class="panel">
          <figcaption>Spend per day (USD)</figcaption>
          <TimeChart label="Spend per day" times={days.map((day) => day.at)} values={days.map((day) => day.usd)} bars format={formatUsdAxis} />
        </figure>
      ) : null}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{grouping === 'day' ? 'Day' : grouping === 'model' ? 'Model' : 'Key'}</th>
              <th scope="col" class="number">Requests</th>
              <th scope="col" class="number">Errors</th>
              <th scope="col" class="number">Tokens</th>
              <th scope="col" class="number">Images</th>
              <th scope="col" class="number">Video s</th>
              <th scope="col" class="number">Spend</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((group) => (
              <tr key={idOf(grouping, group)}>
                <td class="id" title={idOf(grouping, group)}>
                  {nameOf(group)}
                </td>
                <td class="number">{showNumber(group.requests)}</td>
                <td class="number">{showNumber(group.errors)}</td>
                <td class="number">{showNumber(tokensOf(group))}</td>
                <td class="number">{showNumber(group.images)}</td>
                <td class="number">{showNumber(group.video_seconds)}</td>
                <td class="number">{showUsd(group.cost_usd)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td class="number">{showNumber(rows.reduce((sum, group) => sum + group.requests, 0))}</td>
              <td class="number">{showNumber(rows.reduce((sum, group) => sum + group.errors, 0))}</td>
              <td class="number">{showNumber(rows.reduce((sum, group) => sum + tokensOf(group), 0))}</td>
              <td class="number">{showNumber(rows.reduce((sum, group) => sum + group.images, 0))}</td>
              <td class="number">{showNumber(rows.reduce((sum, group) => sum + group.video_seconds, 0))}</td>
              <td class="number" data-testid="usage-total">
                {showUsd(sumUsd(rows.map((group) => group.cost_usd)))}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
