import { GatewayError } from '../../errors/gateway-error.js';
import type { ClientFormat } from '../../formats/client-format.js';
import type { FormatName } from '../../ir/format-name.js';
import type { IrRequest } from '../../ir/request.js';
import { mayHoldForeignBlob } from '../../ir/client-blob.js';
import type { EndpointFamily } from '../../keys/endpoint-family.js';
import { passthroughCall } from '../../passthrough/passthrough-call.js';
import { adapterFor } from '../../providers/registry.js';
import type { AttemptContext } from '../../call/attempt-context.js';
import type { CallOutcome } from '../../call/call-outcome.js';
import type { CatalogRoute } from '../../catalog/model-catalog.js';
import { inUpstreamSlot } from '../../routing/in-upstream-slot.js';
import { fallbackPolicy } from '../../routing/fallback-policy.js';
import { runWithFallback } from '../../routing/run-with-fallback.js';
import { translatedCall } from '../../translation/translated-call.js';
import type { GatewayServices } from '../gateway-services.js';
import type { MeteredCall } from '../metered-call/metered-call-state.js';
import type { DecodedText, TextAnswer } from './text-endpoint.js';

/**
 * A text call's upstream side: on each route in turn until one answers, the body passed through
 * as it is (the client's format is native upstream) or translated from the decoded request.
 */
export function sendText(call: MeteredCall, family: EndpointFamily, format: ClientFormat, decoded: DecodedText): Promise<TextAnswer> {
  const { services, requestId } = call;
  const { routing } = call.snapshot;
  const { model, request, refusal, rawBody, parsedBody, forwarded, rawBytes } = decoded;
  const foreignBlobs = mayHoldForeignBlob(rawBody);
  const signal = call.abortScope();
  // The answer is made by the attempt that commits: the pipeline's own await is the only turn the call waits.
  return runWithFallback(
    model.routes,
    fallbackPolicy(routing, services.circuitBreakers, call.key?.id),
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
      // An uncapped route goes straight to the call; a capped one holds its slot until the answer ends.
      const sent =
        route.maxConcurrency === undefined
          ? sendAttempt(attempt, passThrough, rawBody, parsedBody, rawBytes, request)
          : inUpstreamSlot(services.upstreamCaps, route, () => sendAttempt(attempt, passThrough, rawBody, parsedBody, rawBytes, request), (outcome) => outcome.completion);
      return sent.then((outcome) => committedAnswer(services, family, decoded, outcome, route));
    },
    (report) => {
      services.metrics.observeUpstreamError(report.route.target.providerName, model.id, report.error.code);
      services.logger.warn(
        { requestId, provider: report.route.target.providerName, attempt: report.attempt, code: report.error.code, status: report.error.status },
        'upstream attempt failed',
      );
    },
  );
}

/** The committed answer as the client gets it: seen by the endpoint's own step (stored responses), a stream tracked while it runs. */
function committedAnswer(services: GatewayServices, family: EndpointFamily, decoded: DecodedText, committed: CallOutcome, route: CatalogRoute): TextAnswer {
  const outcome = decoded.deliver === undefined ? committed : decoded.deliver(committed);
  if (outcome.contentType.startsWith('text/event-stream')) services.metrics.trackStream(family, outcome.completion);
  return { contentType: outcome.contentType, body: outcome.body, completion: outcome.completion, settled: outcome.settled, route };
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
function sendAttempt(
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
