import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import { toGatewayError } from '../../errors/gateway-error.js';
import type { CallLimits } from '../../governance/key-limits.js';
import { errorAnswer, type GatewayAnswer } from '../../http/gateway-answer.js';
import { assertEndpointAllowed } from '../../keys/key-scope.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { GatewayServices } from '../gateway-services.js';
import { MeteredCall, type MeteredExchange } from './metered-call-state.js';
import type { MeteredAnswer, MeteredEndpoint } from './metered-endpoint.js';
import { reserveWorstCase } from './reserve-worst-case.js';

/**
 * One paid call, whatever the endpoint (its steps in `metered-endpoint.ts`): authenticate, check
 * the key's scope, read, admit against the key's rate limits, decode, reserve the worst case,
 * send, then settle — the ledger entry, the limits' end, the headers — or answer the failure in
 * the client's shape. The text endpoints are the gateway's hot path: every step is awaited only
 * when it returned a promise (an await costs a turn of the event loop), and the call allocates
 * one state object of its own.
 */
export async function runMeteredCall<Asked, Decoded, Answer extends MeteredAnswer>(
  endpoint: MeteredEndpoint<Asked, Decoded, Answer>,
  exchange: MeteredExchange,
  services: GatewayServices,
  call: MeteredCall = new MeteredCall(exchange, services),
): Promise<GatewayAnswer> {
  // Set once the call passed validation and its reservation: a failure from then on is on the ledger.
  let passed = false;
  let decoded: Decoded | undefined;
  try {
    const key = await services.authenticator.authenticate(call.headers);
    assertEndpointAllowed(key, endpoint.family);
    call.key = key;
    const reading = endpoint.read(call);
    const asked = reading instanceof Promise ? await reading : reading;
    const admitted = services.limits.admit(key);
    const limits = admitted instanceof Promise ? await admitted : admitted;
    call.limits = limits;
    const decoding = endpoint.decode(call, asked);
    const request = decoding instanceof Promise ? await decoding : decoding;
    decoded = request;
    if (endpoint.worstCase !== undefined && limits.reserves) {
      const reserving = reserveWorstCase(endpoint, call, request, limits);
      if (reserving !== undefined) await reserving;
    }
    passed = true;
    const answer = await endpoint.send(call, request);
    passed = false;
    const entry = settle(endpoint, call, request, answer, limits);
    const body = answer.body;
    const whole = typeof body === 'string' || body instanceof Uint8Array;
    const headers: Record<string, string> = { 'content-type': answer.contentType, 'x-request-id': call.requestId };
    if (endpoint.uncached === true || !whole) headers['cache-control'] = 'no-cache';
    limits.addHeaders(headers, endpoint.format.name);
    // A whole answer's cost is known before it is sent, so it goes with it; a stream's is known
    // only at its end and is in the ledger.
    if (whole && entry !== undefined) {
      const recorded = entry instanceof Promise ? await entry : entry;
      if (recorded !== undefined) headers['x-request-cost-usd'] = formatNanoUsd(recorded.costNanoUsd);
    }
    return { status: 200, headers, body };
  } catch (error) {
    return failedCall(endpoint, call, passed ? decoded : undefined, error);
  }
}

/**
 * Hands the delivered call to metering (once) and finishes its limits with the entry, which
 * settles its reservation and charges its tokens to the key's minute. A promised entry (a
 * stream's, written when it ends) finishes them when it comes; undefined when the call is not on
 * the ledger.
 */
function settle<Asked, Decoded, Answer extends MeteredAnswer>(
  endpoint: MeteredEndpoint<Asked, Decoded, Answer>,
  call: MeteredCall,
  decoded: Decoded,
  answer: Answer,
  limits: CallLimits,
): LedgerEntry | Promise<LedgerEntry | undefined> | undefined {
  if (endpoint.meter === undefined) {
    limits.finish();
    return undefined;
  }
  const entry = endpoint.meter(call.services.ledger, call, decoded, answer);
  if (!(entry instanceof Promise)) {
    limits.finish(entry);
    return entry;
  }
  return entry.then(
    (recorded) => {
      limits.finish(recorded);
      return recorded;
    },
    (error: unknown) => {
      limits.finish();
      call.services.logger.error({ requestId: call.requestId, err: error }, 'metering failed');
      return undefined;
    },
  );
}

/**
 * A failed call's answer in the client's shape, with the rate-limit headers once it was admitted.
 * A call that passed validation is on the record even when no upstream answered it.
 */
function failedCall<Asked, Decoded, Answer extends MeteredAnswer>(
  endpoint: MeteredEndpoint<Asked, Decoded, Answer>,
  call: MeteredCall,
  /** What the call was decoded to, once it passed validation and its reservation. */
  passed: Decoded | undefined,
  thrown: unknown,
): GatewayAnswer {
  const { services, requestId } = call;
  // A call stopped by a shutdown says so, rather than what its cancelled upstream call threw.
  const failure = toGatewayError(call.signal?.reason ?? thrown);
  if (failure.status >= 500) services.logger.warn({ requestId, code: failure.code, err: failure.cause }, failure.message);
  const entry = passed === undefined ? undefined : endpoint.meterFailure?.(services.ledger, call, passed, failure.status);
  call.limits?.finish(entry);
  const answer = errorAnswer(failure, requestId, endpoint.format);
  if (call.limits !== undefined) call.limits.addHeaders(answer.headers, endpoint.format.name);
  return answer;
}
