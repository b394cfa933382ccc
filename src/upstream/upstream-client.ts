import type { IncomingHttpHeaders } from 'node:http';
import { Agent, undiciErrors } from './undici-agent.js';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';
import type { AbortScope } from '../call/abort-scope.js';
import { transportFailure } from './transport-failure.js';
import { UpstreamBody } from './upstream-body.js';

/**
 * One keep-alive dispatcher for every upstream: undici keeps a connection pool per origin inside
 * it, so repeated calls to the same provider reuse warm sockets. The pool is not capped: a capped
 * pool makes the thousand-and-first concurrent stream wait for a whole other stream to finish.
 */
let sharedDispatcher: Agent | undefined;

function dispatcher(): Agent {
  sharedDispatcher ??= new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 });
  return sharedDispatcher;
}

export interface UpstreamCall {
  /** POST unless said otherwise: every generation is one; job-shaped APIs also GET and DELETE. */
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Aborted when the client goes away or the gateway gives up on this attempt. */
  readonly signal: AbortScope;
  /** Time allowed until the upstream's response headers, and between body chunks unless `idleTimeoutMs` says otherwise. */
  readonly timeoutMs: number;
  /** Time allowed between body chunks once the answer started (a stalled stream). */
  readonly idleTimeoutMs?: number;
  /** Largest answer read; beyond it the call fails with `upstream_answer_too_large`. */
  readonly maxAnswerBytes?: number;
  /** Another dispatcher than the shared one (content downloads that must not reach private addresses). */
  readonly dispatcher?: Dispatcher;
}

export interface UpstreamResponse {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: UpstreamBody;
}

/**
 * Sends one request upstream. Connection failures and time-outs become retryable GatewayErrors.
 * It talks to undici's dispatcher directly: its `request` helper wraps every answer in a Node
 * Readable and every call in extra abort plumbing, a measurable share of a relayed call's cost.
 */
export function sendUpstream(call: UpstreamCall): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const handler = new UpstreamCallHandler(call.signal, call.maxAnswerBytes, resolve, (error) => reject(upstreamTransportError(error, call.signal)));
    const target = splitUrl(call.url);
    (call.dispatcher ?? dispatcher()).dispatch(
      {
        origin: target.origin,
        path: target.path,
        method: call.method ?? 'POST',
        headers: call.headers,
        body: call.body ?? null,
        headersTimeout: call.timeoutMs,
        bodyTimeout: call.idleTimeoutMs ?? call.timeoutMs,
      },
      handler,
    );
  });
}

class UpstreamCallHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private body: UpstreamBody | undefined;
  private readonly stopListening: () => void;

  constructor(
    private readonly signal: AbortScope,
    private readonly maxAnswerBytes: number | undefined,
    private readonly resolve: (response: UpstreamResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.stopListening = signal.onAbort(() => this.abort());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) this.abort();
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // 1xx informational answers come before the real one and carry nothing for the gateway.
    if (statusCode < 200) return;
    this.body = new UpstreamBody(
      () => controller.pause(),
      () => controller.resume(),
      () => this.abort(),
      this.maxAnswerBytes,
    );
    this.resolve({ statusCode, headers, body: this.body });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.stopListening();
    this.body?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.stopListening();
    if (this.body === undefined) this.reject(error);
    else this.body.fail(error);
  }

  private abort(): void {
    this.controller?.abort(new undiciErrors.RequestAbortedError());
  }
}

/** Origin and path of an upstream URL, parsed once per URL: routes call the same few URLs. */
function splitUrl(url: string): { origin: string; path: string } {
  let split = splitUrls.get(url);
  if (split === undefined) {
    const parsed = new URL(url);
    split = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (splitUrls.size >= maxRememberedUrls) splitUrls.clear();
    splitUrls.set(url, split);
  }
  return split;
}

const splitUrls = new Map<string, { origin: string; path: string }>();
const maxRememberedUrls = 1_000;

/**
 * Maps a transport failure to the client-facing error. The URL and host are never included, in its
 * message or in its cause (which is logged): the cause keeps only the failure's kind and code.
 */
export function upstreamTransportError(error: unknown, signal?: AbortScope): GatewayError {
  if (error instanceof GatewayError) return error;
  const cause = transportFailure(error);
  if (signal?.aborted) return new GatewayError('upstream_timeout', 'The request was cancelled before the upstream answered.', { cause });
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError('upstream_timeout', 'The upstream did not answer in time.', { cause });
  }
  return new GatewayError('upstream_connect_failed', 'The upstream could not be reached.', { cause });
}

/** Reads a whole upstream body as text (used for errors and non-streamed answers). */
export async function readBodyText(response: UpstreamResponse): Promise<string> {
  return response.body.text();
}

/** Response headers as a flat record of lower-case names (repeated headers come as arrays). */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export async function closeUpstreamPools(): Promise<void> {
  const closing = sharedDispatcher;
  sharedDispatcher = undefined;
  await closing?.close();
}
