import { z } from 'zod';
import { ledgerEntryRecord } from '../../metering/ledger-entry-record.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { jsonAnswer } from '../videos/video-caller.js';
import { adminCaller } from './admin-caller.js';
import { adminQuery, queryInteger } from './admin-query.js';
import { decodeRecentCallsCursor, encodeRecentCallsCursor } from './recent-calls-cursor.js';

const recentQuerySchema = z.object({
  limit: queryInteger('limit', 1, 500).default(50),
  before: z.string().min(1).max(400).optional(),
  key: z.string().min(1).optional(),
});

/**
 * `GET /admin/requests?limit=&before=&key=`: the most recent calls, newest first — model, key,
 * status, tokens, cost and latency as ledger entries — a page at a time; `next_before` asks for
 * the next page and is null on the last.
 */
export async function handleRecentCalls(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const query = adminQuery(context, recentQuerySchema);
    const before = query.before === undefined ? undefined : decodeRecentCallsCursor(query.before);
    // One more than asked tells whether another page follows without a count.
    const entries = await services.storage.ledger.recent({
      limit: query.limit + 1,
      ...(before === undefined ? {} : { before }),
      ...(query.key === undefined ? {} : { keyId: query.key }),
    });
    const page = entries.slice(0, query.limit);
    const last = page.at(-1);
    const hasMore = entries.length > query.limit && last !== undefined;
    return jsonAnswer(
      {
        object: 'list',
        data: page.map(ledgerEntryRecord),
        has_more: hasMore,
        next_before: hasMore ? encodeRecentCallsCursor({ createdAt: last.createdAt, requestId: last.requestId }) : null,
      },
      requestId,
    );
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
