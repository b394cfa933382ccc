import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CatalogSnapshot } from '../../catalog/catalog-snapshot.js';
import type { ClientScope } from '../../call/client-scope.js';
import type { CallLimits } from '../../governance/key-limits.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import { clientAbortScope, nodeRequestHeaders, type HeaderSource } from '../../http/request-headers.js';
import type { GatewayServices } from '../gateway-services.js';

/** One HTTP exchange as a metered call sees it; path parameters where the route has them. */
export interface MeteredExchange {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
  readonly requestId: string;
  readonly pathParameters?: Readonly<Record<string, string>>;
}

/**
 * What the pipeline knows of one call, handed to each of the endpoint's steps: one object a call,
 * filled in as the call goes (the key once authenticated, the limits once admitted).
 */
export class MeteredCall {
  readonly requestId: string;
  readonly startedAt = Date.now();
  /** One snapshot for the whole call: a reload while it runs changes nothing it sees. */
  readonly snapshot: CatalogSnapshot;
  /** The request's headers, read from Node's own object (see `nodeRequestHeaders`). */
  readonly headers: HeaderSource;
  key: ApiKeyRecord | undefined = undefined;
  /** Set once the call is admitted; until then a failure carries no rate-limit headers. */
  limits: CallLimits | undefined = undefined;
  /** The call's abort scope, once `send` asked for one. */
  signal: ClientScope | undefined = undefined;

  constructor(
    readonly exchange: MeteredExchange,
    readonly services: GatewayServices,
  ) {
    this.requestId = exchange.requestId;
    this.snapshot = services.catalog.current();
    this.headers = nodeRequestHeaders(exchange.incoming);
  }

  /**
   * Aborted when the client goes away or a shutdown's grace runs out: made when the upstream call
   * starts, so a shutdown waits only for calls that reached one. Its reason is the call's error.
   */
  abortScope(): ClientScope {
    this.signal ??= clientAbortScope(this.exchange.outgoing, this.services.drain);
    return this.signal;
  }
}
