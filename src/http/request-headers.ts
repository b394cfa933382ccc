import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientScope } from '../call/client-scope.js';
import type { CallDrain } from '../call/call-drain.js';

/** What the gateway reads from request headers; Web `Headers` fits it too. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The request's headers read straight from Node's parsed object. Asking Hono's request for its
 * `headers` or `signal` builds a full Web Request (headers copy, body stream, abort signal) on
 * every call, a measurable share of a passed-through request's cost.
 */
export function nodeRequestHeaders(incoming: IncomingMessage): HeaderSource {
  return {
    get(name) {
      const value = incoming.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * Aborted when the client goes away before its answer has been sent in full, or when a shutdown's
 * grace runs out while the call is still running (`drain`, with a reason).
 */
export function clientAbortScope(outgoing: ServerResponse, drain: CallDrain): ClientScope {
  const scope = new ClientScope(drain.shutdown);
  const tracked = drain.track(scope);
  outgoing.once('close', () => {
    drain.untrack(tracked);
    if (!outgoing.writableFinished) scope.abort();
  });
  return scope;
}
