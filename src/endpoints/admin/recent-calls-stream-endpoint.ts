import { z } from 'zod';
import { ledgerEntryRecord } from '../../metering/ledger-entry-record.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { adminCaller } from './admin-caller.js';
import { adminQuery } from './admin-query.js';
import type { LedgerTail } from './ledger-tail.js';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
const heartbeatMs = 15_000;
/** Events queued for a client that stopped reading; past this the stream is ended rather than grown. */
const maxQueuedEvents = 10_000;

const streamQuerySchema = z.object({ key: z.string().min(1).optional() });

/**
 * `GET /admin/requests/stream`: server-sent events, one `data:` line per new ledger entry (the
 * shape of `/admin/requests` items, `id:` its request id), from any instance on the same database,
 * with a `: heartbeat` comment every 15 seconds. `key` narrows it to one key's calls.
 */
export async function handleRecentCallsStream(context: GatewayContext, services: GatewayServices, tail: LedgerTail): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const query = adminQuery(context, streamQuerySchema);
    const encoder = new TextEncoder();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let unsubscribe: (() => void) | undefined;
    let ended = false;
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe?.();
    };
    const send = (text: string) => {
      if (ended || controller === undefined) return;
      if ((controller.desiredSize ?? 0) < -maxQueuedEvents) {
        end();
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(text));
    };
    const body = new ReadableStream<Uint8Array>({
      start(opened) {
        controller = opened;
      },
      cancel() {
        end();
      },
    });
    send(': connected\n\n');
    const listener = (entry: LedgerEntry) => {
      if (query.key !== undefined && entry.keyId !== query.key) return;
      send(`id: ${entry.requestId}\ndata: ${JSON.stringify(ledgerEntryRecord(entry))}\n\n`);
    };
    const stop = await tail.subscribe(listener);
    // The client may have gone while the tail read what was already there.
    if (ended) stop();
    else unsubscribe = stop;
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', 'x-request-id': requestId },
    });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
