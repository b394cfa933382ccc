import { z } from 'zod';
import { ledgerExportChunks, ledgerExportFormats } from '../../metering/ledger-entry-record.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminCaller } from './admin-caller.js';
import { adminQuery, assertOrderedRange, queryTime } from './admin-query.js';

const ledgerQuerySchema = z.object({
  since: queryTime.optional(),
  until: queryTime.optional(),
  key: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  format: z.enum(ledgerExportFormats).default('jsonl'),
});

const contentTypes = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

/**
 * A body pulled a chunk at a time as the client takes it (no read-ahead), so an export of any
 * size holds one page of entries in memory; a client that goes away stops the reading.
 */
function pulledBody(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * `GET /admin/ledger?since=&until=&key=&model=&format=jsonl|csv`: every matching entry, oldest
 * first, streamed from keyset pages of the ledger.
 */
export async function handleLedgerExport(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const query = adminQuery(context, ledgerQuerySchema);
    assertOrderedRange(query.since, query.until);
    const entries = services.storage.ledger.entries({
      ...(query.since === undefined ? {} : { since: query.since }),
      ...(query.until === undefined ? {} : { until: query.until }),
      ...(query.key === undefined ? {} : { keyId: query.key }),
      ...(query.model === undefined ? {} : { model: query.model }),
    });
    return new Response(pulledBody(ledgerExportChunks(entries, query.format)), {
      status: 200,
      headers: {
        'content-type': contentTypes[query.format],
        'content-disposition': `attachment; filename="ledger.${query.format}"`,
        'x-request-id': requestId,
      },
    });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
