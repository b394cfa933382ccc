import { z } from 'zod';
import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import type { UsageGroup, UsageGrouping } from '../../metering/usage-ledger.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { jsonAnswer } from '../videos/video-caller.js';
import { adminCaller } from './admin-caller.js';
import { adminQuery, assertOrderedRange, queryTime } from './admin-query.js';

const stepMs = { hour: 3_600_000, day: 86_400_000 } as const;

const usageQuerySchema = z.object({
  group_by: z.enum(['key', 'model', 'day']).default('day'),
  step: z.enum(['hour', 'day']).default('day'),
  since: queryTime.optional(),
  until: queryTime.optional(),
  key: z.string().min(1).optional(),
});

/**
 * The group's own field: `key_id` (null for calls without a key) with the key's `key_name` (what
 * people know it by), `model` or `day`.
 */
function groupField(groupBy: UsageGrouping, group: string, keyNames: ReadonlyMap<string, string>): Record<string, string | null> {
  if (groupBy === 'key') return group === '' ? { key_id: null, key_name: null } : { key_id: group, key_name: keyNames.get(group) ?? null };
  return { [groupBy]: group };
}

function usageGroupObject(groupBy: UsageGrouping, group: UsageGroup, keyNames: ReadonlyMap<string, string>) {
  return {
    ...groupField(groupBy, group.group, keyNames),
    requests: group.requests,
    errors: group.errors,
    input_uncached: group.inputUncached,
    cache_read: group.cacheRead,
    cache_write: group.cacheWrite,
    output: group.output,
    reasoning: group.reasoning,
    images: group.images,
    video_seconds: group.videoSeconds,
    cost_usd: formatNanoUsd(group.costNanoUsd),
  };
}

/**
 * `GET /admin/usage?group_by=key|model|day&step=day|hour&since=&until=&key=`: spend and tokens per
 * group, from the daily rollups (or the hourly ones with `step=hour`, for a range shorter than a
 * day), so `since` and `until` count in whole UTC buckets of the step (rounded out).
 */
export async function handleUsage(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const query = adminQuery(context, usageQuerySchema);
    assertOrderedRange(query.since, query.until);
    const groups = await services.storage.ledger.usage({
      groupBy: query.group_by,
      step: query.step,
      ...(query.since === undefined ? {} : { since: query.since }),
      ...(query.until === undefined ? {} : { until: query.until }),
      ...(query.key === undefined ? {} : { keyId: query.key }),
    });
    const keyNames = query.group_by === 'key' ? new Map((await services.storage.keys.list()).map((key) => [key.id, key.name])) : new Map<string, string>();
    return jsonAnswer(
      {
        object: 'list',
        group_by: query.group_by,
        step: query.step,
        // The range the rows answered for: whole UTC buckets of the step around what was asked.
        since: query.since === undefined ? null : new Date(Math.floor(query.since.getTime() / stepMs[query.step]) * stepMs[query.step]).toISOString(),
        until: query.until === undefined ? null : new Date(Math.ceil(query.until.getTime() / stepMs[query.step]) * stepMs[query.step]).toISOString(),
        data: groups.map((group) => usageGroupObject(query.group_by, group, keyNames)),
      },
      requestId,
    );
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
