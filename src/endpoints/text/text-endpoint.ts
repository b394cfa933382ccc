import { GatewayError, toGatewayError } from '../../errors/gateway-error.js';
import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import type { CallLimits } from '../../governance/key-limits.js';
import type { ClientFormat } from '../../formats/client-format.js';
import type { FormatName } from '../../ir/format-name.js';
import type { IrRequest } from '../../ir/request.js';
import { mayHoldForeignBlob } from '../../ir/client-blob.js';
import type { EndpointFamily } from '../../keys/endpoint-family.js';
import { meterCall, meterFailedCall, type MeteringFacts } from '../../metering/meter-call.js';
import { passthroughCall } from '../../passthrough/passthrough-call.js';
import { adapterFor } from '../../providers/registry.js';
import type { AbortScope } from '../../call/abort-scope.js';
import type { AttemptContext } from '../../call/attempt-context.js';
import type { CallOutcome } from '../../call/call-outcome.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { inUpstreamSlot } from '../../routing/in-upstream-slot.js';
import { fallbackPolicy } from '../../routing/fallback-policy.js';
import { runWithFallback } from '../../routing/run-with-fallback.js';
import { translatedCall } from '../../translation/translated-call.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { Exchange } from '../../http/exchange.js';
import { errorAnswer, type GatewayAnswer } from '../../http/gateway-answer.js';
import type { GatewayServices } from '../gateway-services.js';
import { parseJsonObject } from '../../http/read-request-body.js';
import { readAuthorisedRequest } from '../read-authorised-request.js';
import { reserveTextCall } from './reserve-text-call.js';
import { clientAbortScope } from '../../http/request-headers.js';

/** A request body as read, possibly rewritten by an endpoint's own step before routing. */
export interface PreparedBody {
  readonly parsedBody: Record<string, unknown>;
  readonly rawBody: string;
  /** Sees the committed answer before it is sent, and may watch it on its way (stored responses). */
  readonly deliver?: (outcome: CallOutcome) => CallOutcome;
}

/** An endpoint's own step between reading the body and routing it. */
export type PrepareBody = (body: PreparedBody, key: ApiKeyRecord | undefined) => Promise<PreparedBody>;

/**
 * One text generation call, whatever the client format: authenticate, read and decode the body,
 * resolve the model, then pass through or translate on each route in turn until one answers.
 */
export async function handleTextRequest(
  exchange: Exchange,
  services: GatewayServices,
  family: EndpointFamily,
  format: ClientFormat,
  prepare?: PrepareBody,
): Promise<GatewayAnswer> {
  const { requestId } = exchange;
  const startedAt = Date.now();
  // One snapshot for the whole call: a reload while it runs changes nothing it sees.
  const { catalog, routing } = services.catalog.current();
  let limits: CallLimits | undefined;
  let metered: MeteringFacts | undefined;
  let clientSignal: AbortScope | undefined;
  try {
    const { key, forwarded, rawBody: received, rawBytes } = await readAuthorisedRequest(exchange.incoming, services, family, format.name);
    // Awaited only when there is something to wait for: an await costs the hot path a turn.
    const admitted = services.limits.admit(key);
    const callLimits = admitted instanceof Promise ? await admitted : admitted;
    limits = callLimits;
    const read: PreparedBody = { rawBody: received, parsedBody: parseJsonObject(received) };
    const { rawBody, parsedBody, deliver } = prepare === undefined ? read : await prepare(read, key);
    const { request, refusal } = decodeForRouting(format, parsedBody);
    const model = resolveModel(catalog, request?.model ?? (parsedBody.model as string), 'text', key);
    const reserving = reserveTextCall(callLimits, { requestId, model, startedAt, format: format.name, rawBody, parsedBody, forwarded });
    if (reserving !== undefined) await reserving;
    metered = { requestId, key, model, route: undefined, family, rawBodyLength: rawBody.length, startedAt };
    const foreignBlobs = mayHoldForeignBlob(rawBody);
    const signal = clientAbortScope(exchange.outgoing, services.drain);
    clientSignal = signal;
    const { outcome: committed, route: servedBy } = await runWithFallback(
      model.routes,
      fallbackPolicy(routing, services.circuitBreakers, key?.id),
      signal,
      (route) => {
        const adapter = adapterFor(route.target);
        const text = adapter.text;
        if (text === undefined) throw new GatewayError('no_route', `The upstream '${route.target.providerName}' does not generate text.`);
        const native = text.nativeFormats.includes(format.name);
        if (request === undefined && !native) throw refusal;
        const attempt: AttemptContext = {
          format,
          adapter,
          text,
          route,
          timeoutMs: route.timeoutMs ?? routing.timeout_ms,
          idleTimeoutMs: routing.idle_timeout_ms ?? route.timeoutMs ?? routing.timeout_ms,
          maxAnswerBytes: routing.max_answer_bytes,
          usageWaitMs: routing.usage_wait_after_disconnect_ms,
          clientSignal: signal,
          forwarded,
          encode: { requestId, model: request?.model ?? String(parsedBody.model), request: request ?? emptyRequest },
        };
        // A body carrying another provider's reasoning blob is translated, which drops the blob.
        const passThrough = request === undefined || (native && !foreignBlobs);
        if (!passThrough) noteUnservedHostedTools(services, requestId, request, text.nativeFormats);
        const passedBytes = rawBody === received ? rawBytes : undefined;
        // An uncapped route goes straight to the call; a capped one holds its slot until the answer ends.
        const call =
          route.maxConcurrency === undefined
            ? sendText(attempt, passThrough, rawBody, parsedBody, passedBytes, request)
            : inUpstreamSlot(services.upstreamCaps, route, () => sendText(attempt, passThrough, rawBody, parsedBody, passedBytes, request), (outcome) => outcome.completion);
        return call.then((outcome) => ({ outcome, route }));
      },
      (report) => {
        services.metrics.observeUpstreamError(report.route.target.providerName, model.id, report.error.code);
        services.logger.warn(
          { requestId, provider: report.route.target.providerName, attempt: report.attempt, code: report.error.code, status: report.error.status },
          'upstream attempt failed',
        );
      },
    );
    const outcome = deliver === undefined ? committed : deliver(committed);
    if (outcome.contentType.startsWith('text/event-stream')) services.metrics.trackStream(family, outcome.completion);
    const metering = services.ledger.awaiting(meterCall(services.ledger, outcome, { ...metered, route: servedBy })).then(
      (entry) => {
        callLimits.finish(entry);
        return entry;
      },
      (error: unknown) => {
        callLimits.finish();
        services.logger.error({ requestId, err: error }, 'metering failed');
        return undefined;
      },
    );
    metered = undefined;
    const headers = callLimits.addHeaders({ 'content-type': outcome.contentType, 'x-request-id': requestId, 'cache-control': 'no-cache' }, format.name);
    // A whole answer's usage is known before it is sent, so its cost goes with it; a stream's is
    // known only at its end and is in the ledger.
    if (typeof outcome.body === 'string' || outcome.body instanceof Uint8Array) {
      const entry = await metering;
      if (entry !== undefined) headers['x-request-cost-usd'] = formatNanoUsd(entry.costNanoUsd);
    }
    return { status: 200, headers, body: outcome.body };
  } catch (error) {
    // A call stopped by a shutdown says so, rather than what its cancelled upstream call threw.
    const failure = toGatewayError(clientSignal?.reason ?? error);
    if (failure.status >= 500) {
      services.logger.warn({ requestId, code: failure.code, err: failure.cause }, failure.message);
    }
    // A call that passed validation is on the record even when no upstream answered it.
    limits?.finish(metered === undefined ? undefined : meterFailedCall(services.ledger, metered, failure.status));
    const answer = errorAnswer(failure, requestId, format);
    return limits === undefined ? answer : { ...answer, headers: { ...answer.headers, ...limits.headers(format.name) } };
  }
}

/**
 * Hosted tools (web search, tool search, server tools) run inside the vendor whose format they were
 * written for; another upstream cannot serve them, so adapters leave them out. That is logged,
 * never an error: agents such as Codex always send them.
 */
function noteUnservedHostedTools(services: GatewayServices, requestId: string, request: IrRequest, upstreamFormats: readonly FormatName[]): void {
  const unserved = (request.tools ?? []).filter((tool) => tool.type === 'hosted' && !(upstreamFormats as readonly string[]).includes(tool.format));
  if (unserved.length === 0) return;
  services.logger.info({ requestId, tools: unserved.map((tool) => tool.name) }, 'hosted tools left out: the upstream cannot serve them');
}

/** One attempt's upstream call: the body passed through as it is, or translated from the decoded request. */
function sendText(
  attempt: AttemptContext,
  passThrough: boolean,
  rawBody: string,
  parsedBody: Record<string, unknown>,
  rawBytes: Parameters<typeof passthroughCall>[3],
  request: IrRequest | undefined,
): Promise<CallOutcome> {
  return passThrough || request === undefined ? passthroughCall(attempt, rawBody, parsedBody, rawBytes) : translatedCall(attempt, request);
}

/** Stands in for the decoded request on passthrough attempts, which never read it. */
const emptyRequest: IrRequest = { model: '', messages: [], params: {}, stream: false, extensions: {} };

/**
 * Decodes the body. Content the gateway cannot translate (a block type newer than this gateway)
 * is no reason to refuse a call that a same-format upstream can take as it is: the refusal is
 * kept and raised only if a route needs translation.
 */
function decodeForRouting(
  format: ClientFormat,
  body: Record<string, unknown>,
): { request: IrRequest; refusal?: undefined } | { request: undefined; refusal: GatewayError } {
  try {
    return { request: format.decodeRequest(body) };
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'unsupported_content' && typeof body.model === 'string' && body.model !== '') {
      return { request: undefined, refusal: error };
    }
    throw error;
  }
}
