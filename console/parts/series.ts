import { getJson, query } from '../api.js';
import type { SeriesPoint } from '../types.js';

export type Range = 'hour' | 'day' | 'month';

/** Each range and the step its buckets take: 60 minutes, 24 hours, 30 days. */
export const ranges: Record<Range, { label: string; step: 'minute' | 'hour' | 'day'; spanMs: number }> = {
  hour: { label: 'Last hour', step: 'minute', spanMs: 3_600_000 },
  day: { label: 'Last day', step: 'hour', spanMs: 86_400_000 },
  month: { label: 'Last 30 days', step: 'day', spanMs: 30 * 86_400_000 },
};

export interface Series {
  times: number[];
  values: (number | null)[];
  /** Every bucket's value as the API sent it: cost as decimal USD strings, to be summed exactly. */
  raw: (number | string | null)[];
}

/** One metric over the range, from `/admin/usage/series` (indexed aggregates, never ledger rows). */
export async function loadSeries(metric: string, range: Range, filter: { key?: string; model?: string } = {}): Promise<Series> {
  const { step, spanMs } = ranges[range];
  const since = new Date(Date.now() - spanMs).toISOString();
  const answer = await getJson<{ data: SeriesPoint[] }>(`/admin/usage/series${query({ metric, step, since, key: filter.key, model: filter.model })}`);
  return {
    times: answer.data.map((point) => Date.parse(point.at) / 1000),
    values: answer.data.map((point) => (point.value === null ? null : Number(point.value))),
    raw: answer.data.map((point) => point.value),
  };
}
