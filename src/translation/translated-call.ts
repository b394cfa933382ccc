import { GatewayError, toGatewayError } from '../errors/gateway-error.js';
import { isEmptyUsage, type IrRequest, type IrStreamEvent, type Usage } from '../ir/index.js';
import type { StreamDecoder } from '../providers/provider-adapter.js';
import { decodeUpstreamError } from '../providers/decode-upstream-error.js';
import { scrubUpstreamError } from '../providers/scrub-upstream-error.js';
import type { StreamEncoder } from '../formats/client-format.js';
import type { AttemptContext } from '../call/attempt-context.js';
import type { CallCompletion, CallOutcome, DeliveredOutput } from '../call/call-outcome.js';
import { commitOnFirstChunk, type KeepAlive } from '../call/commit-stream.js';
import { StreamedCallScope } from '../call/streamed-call-scope.js';
import { DeliveredText } from '../tokens/delivered-text.js';
import { readOnIfClientLeft } from '../call/read-on-if-client-left.js';
import { countInputTokens } from '../tokens/count-input-tokens.js';
import { parseUpstreamJson } from '../upstream/parse-upstream-json.js';
import { isUpstreamErrorBody } from '../upstream/upstream-error-body.js';
import { createSseReader, type SseEvent } from '../upstream/sse-reader.js';
import { flattenHeaders, readBodyText, upstreamTransportError, type UpstreamResponse } from '../upstream/upstream-client.js';
import { sendAuthorized } from '../upstream/send-authorized.js';

/**
 * Different wire formats on the two sides: the request goes client format → IR → provider body,
 * and the answer provider bytes → IR → client format, streamed event by event.
 */
export async function translatedCall(context: AttemptContext, request: IrRequest): Promise<CallOutcome> {
  const { adapter, text: generation, route, format } = context;
  const upstreamRequest = generation.buildRequest(request, route.target, context.forwarded);
  const scope = new StreamedCallScope(context.clientSignal, context.usageWaitMs);
  const abort = scope.upstream;
  const responsePending = sendAuthorized(adapter, route.target, {
    ...upstreamRequest,
    signal: abort,
    timeoutMs: context.timeoutMs,
    idleTimeoutMs: context.idleTimeoutMs,
    maxAnswerBytes: context.maxAnswerBytes,
  });
  const estimatePending = inputTokensEstimate(context, request);
  const response = await responsePending;
  if (response.statusCode >= 400) {
    const text = await readBodyText(response).catch(() => '');
    throw decodeUpstreamError(adapter, route.target, response.statusCode, text, flattenHeaders(response.headers));
  }
  if (!request.stream) {
    const text = await readBodyText(response).catch((error: unknown) => {
      throw upstreamTransportError(error, abort);
    });
    const parsed = parseUpstreamJson(text, 'upstream_malformed_answer');
    if (isUpstreamErrorBody(parsed)) throw decodeUpstreamError(adapter, route.target, 502, text, flattenHeaders(response.headers));
    const irResponse = generation.decodeResponse(parsed, request);
    const body = JSON.stringify(format.encodeResponse(irResponse, context.encode));
    // Zero figures are a decoder's stand-in for usage the server never stated: metering estimates instead.
    const settled: CallCompletion = { usage: isEmptyUsage(irResponse.usage) ? undefined : irResponse.usage, completed: true, status: 200 };
    return { contentType: 'application/json', body, completion: Promise.resolve(settled), settled };
  }
  const decoder = generation.createStreamDecoder(request);
  const inputTokens = await estimatePending;
  const encoder = format.createStreamEncoder(inputTokens === undefined ? context.encode : { ...context.encode, inputTokensEstimate: inputTokens });
  const state: TranslationState = { usage: undefined, committed: false, completed: false, usageFinal: false };
  let resolveCompletion: (completion: CallCompletion) => void = () => {};
  const completion = new Promise<CallCompletion>((resolve) => (resolveCompletion = resolve));
  const body = await commitOnFirstChunk(
    translateStream(response, decoder, encoder, state, context, scope),
    () =>
      resolveCompletion({
        usage: state.usage,
        completed: state.completed,
        status: 200,
        ...(state.deliveredOutput === undefined ? {} : { deliveredOutput: state.deliveredOutput }),
      }),
    // The client left: read on for the usage (the stream reads on when given up), then stop.
    () => scope.clientLeft(),
    keepAliveFor(encoder),
  ).catch((error: unknown) => {
    throw upstreamTransportError(error, abort);
  });
  return { contentType: 'text/event-stream; charset=utf-8', body, completion };
}

/**
 * The gateway's input count, for a streamed answer in a format that states input tokens at the
 * start (the upstream may state them only at the end). Counting waits a turn of the event loop
 * so the upstream request is written first and the count overlaps the upstream's thinking; a
 * failed count only loses the estimate.
 */
async function inputTokensEstimate(context: AttemptContext, request: IrRequest): Promise<number | undefined> {
  if (!request.stream || !context.format.inputTokensAtStreamStart) return undefined;
  await new Promise((resolve) => setImmediate(resolve));
  return countInputTokens(request).catch(() => undefined);
}

interface TranslationState {
  usage: Usage | undefined;
  /** Set once the first bytes exist: errors after that travel in-stream instead of as HTTP errors. */
  committed: boolean;
  completed: boolean;
  /** The upstream's last event came, with the call's final usage (figures of zero are none). */
  usageFinal: boolean;
  /** What was sent, to count its output, for a stream cut before its final usage or without any. */
  deliveredOutput?: DeliveredOutput;
}

const textEncoder = new TextEncoder();

async function* translateStream(
  response: UpstreamResponse,
  decoder: StreamDecoder,
  encoder: StreamEncoder,
  state: TranslationState,
  context: AttemptContext,
  scope: StreamedCallScope,
): AsyncGenerator<Uint8Array, void, void> {
  let pendingEvents: SseEvent[] = [];
  const reader = (context.text.createEventReader ?? createSseReader)((event) => pendingEvents.push(event));
  const delivered = new DeliveredText();
  const noteUsage = (event: IrStreamEvent): void => {
    const usage = event.type === 'usage' || event.type === 'response-end' || event.type === 'response-start' ? event.usage : undefined;
    // A decoder ends a stream whose server never stated usage with zero figures: that is no usage, and the output sent is counted instead.
    if (usage === undefined || isEmptyUsage(usage)) return;
    state.usage = usage;
    if (event.type === 'response-end') state.usageFinal = true;
  };
  /** Decodes the events the reader collected, after the client left: for their usage only. */
  const noteCollected = (): void => {
    const events = pendingEvents;
    pendingEvents = [];
    for (const event of events) for (const decoded of decoder.push(event.event, event.data)) noteUsage(decoded);
  };
  const encodeAll = (events: readonly IrStreamEvent[]): string => {
    let text = '';
    for (const decoded of events) {
      // An error the upstream sent inside its stream is its own text, like an error answer's.
      const event = decoded.type === 'error' ? { ...decoded, error: scrubUpstreamError(toGatewayError(decoded.error), context.route.target) } : decoded;
      if (event.type === 'error' && !state.committed) throw event.error;
      noteUsage(event);
      if (event.type === 'response-end') state.completed = true;
      if (event.type === 'block-delta' && !scope.clientHasLeft) delivered.add(event.delta.text);
      text += encoder.encode(event);
    }
    return text;
  };
  const chunks = response.body.chunks();
  /** True while text is with the client's writer: a `return()` there means the client left. */
  let handedOver = false;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done === true) break;
      reader.push(next.value);
      const events = pendingEvents;
      pendingEvents = [];
      let text = '';
      for (const event of events) text += encodeAll(decoder.push(event.event, event.data));
      if (text.length > 0) {
        state.committed = true;
        scope.commit();
        handedOver = true;
        yield textEncoder.encode(text);
        handedOver = false;
      }
    }
    reader.flush();
    let text = '';
    for (const event of pendingEvents) text += encodeAll(decoder.push(event.event, event.data));
    text += encodeAll(decoder.end());
    if (text.length > 0) yield textEncoder.encode(text);
  } catch (thrown) {
    if (!state.committed) {
      await chunks.return?.().catch(() => undefined);
      throw thrown;
    }
    // Stopped by a shutdown: the client learns that, not that its upstream call broke.
    const reason = context.clientSignal.reason;
    const error = reason ?? (thrown instanceof GatewayError ? thrown : upstreamTransportError(thrown));
    yield textEncoder.encode(context.format.encodeStreamError(toGatewayError(error), context.encode.requestId));
  } finally {
    // Nothing more is sent: the rest is decoded for its usage only, and at the body's end the decoder is ended (Gemini states its final usage only then).
    await readOnIfClientLeft(scope, chunks, handedOver, {
      observe(chunk) {
        reader.push(chunk);
        noteCollected();
      },
      enough: () => state.usageFinal,
      bodyEnded() {
        reader.flush();
        noteCollected();
        for (const decoded of decoder.end()) noteUsage(decoded);
      },
    });
    // Counted when the call is metered, after the stream ended.
    if (state.committed && !state.usageFinal && !delivered.empty) state.deliveredOutput = delivered;
  }
}

/** Anthropic clients expect `ping` events while a model is slow; formats without one send nothing. */
function keepAliveFor(encoder: StreamEncoder): KeepAlive | undefined {
  const text = encoder.keepAlive();
  return text === '' ? undefined : { bytes: textEncoder.encode(text), afterMs: keepAliveAfterMs };
}

const keepAliveAfterMs = 10_000;
