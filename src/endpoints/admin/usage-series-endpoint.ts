import { z } from 'zod';
import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { SeriesStep } from '../../metering/usage-ledger.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { jsonAnswer } from '../videos/video-caller.js';
import { adminCaller } from './admin-caller.js';
import { adminQuery, assertOrderedRange, queryTime } from './admin-query.js';

const stepMs: Record<SeriesStep, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
/** What a range defaults to when `since` is absent: an hour of minutes, a day of hours, 30 days. */
const defaultSpan: Record<SeriesStep, number> = { minute: 3_600_000, hour: 86_400_000, day: 30 * 86_400_000 };
/** More buckets than any chart can draw: refused so a typo in a range cannot make a huge answer. */
export const maxSeriesBuckets = 10_000;

const seriesQuerySchema = z.object({
  metric: z.enum(['requests', 'cost', 'errors', 'latency_p50', 'latency_p95']),
  step: z.enum(['minute', 'hour', 'day']).default('hour'),
  since: queryTime.optional(),
  until: queryTime.optional(),
  key: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
});

/**
 * `GET /admin/usage/series?metric=&step=&since=&until=&key=&model=`: one value per bucket of the
 * step from `since` (rounded down to a bucket) to `until`, every bucket present so a chart needs no
 * filling: 0 (or "0.00" USD for cost) where nothing was called, and null latency where no call was
 * timed. Latency is the percentile in milliseconds, interpolated inside its histogram bucket.
 */
export async function handleUsageSeries(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const query = adminQuery(context, seriesQuerySchema);
    const size = stepMs[query.step];
    const until = query.until ?? new Date();
    const requestedSince = query.since ?? new Date(until.getTime() - defaultSpan[query.step]);
    assertOrderedRange(requestedSince, until);
    const since = new Date(Math.floor(requestedSince.getTime() / size) * size);
    const buckets = Math.ceil((until.getTime() - since.getTime()) / size);
    if (buckets > maxSeriesBuckets) {
      throw new GatewayError('invalid_field', `This range holds ${buckets} ${query.step} buckets; at most ${maxSeriesBuckets} are answered. Use a larger step or a shorter range.`, { param: 'since' });
    }
    const points = await services.storage.ledger.series({
      metric: query.metric,
      step: query.step,
      since,
      until,
      ...(query.key === undefined ? {} : { keyId: query.key }),
      ...(query.model === undefined ? {} : { model: query.model }),
    });
    const byBucket = new Map(points.map((point) => [point.at.getTime(), point.value]));
    const empty = query.metric === 'cost' ? '0.00' : query.metric.startsWith('latency') ? null : 0;
    const data = Array.from({ length: buckets }, (_, index) => {
      const at = since.getTime() + index * size;
      const value = byBucket.get(at);
      return { at: new Date(at).toISOString(), value: value === undefined ? empty : typeof value === 'bigint' ? formatNanoUsd(value) : value };
    });
    return jsonAnswer(
      { object: 'usage.series', metric: query.metric, step: query.step, since: since.toISOString(), until: until.toISOString(), unit: unitOf(query.metric), data },
      requestId,
    );
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

function unitOf(metric: string): string {
  return metric === 'cost' ? 'usd' : metric.startsWith('latency') ? 'ms' : 'count';
}
