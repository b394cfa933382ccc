import { GatewayError } from '../../errors/gateway-error.js';
import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import type { ClientFormat } from '../../formats/client-format.js';
import type { IrRequest } from '../../ir/request.js';
import type { EndpointFamily } from '../../keys/endpoint-family.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { LedgerWriter } from '../../metering/ledger-writer.js';
import { meterCall, meterFailedCall, type MeteringFacts } from '../../metering/meter-call.js';
import type { CallCompletion, CallOutcome } from '../../call/call-outcome.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { parseJsonObject } from '../../http/read-request-body.js';
import type { MeteredCall } from '../metered-call/metered-call-state.js';
import type { MeteredAnswer, MeteredEndpoint } from '../metered-call/metered-endpoint.js';
import { readJsonRequest, type JsonRequest } from '../metered-call/read-json-request.js';
import { explainTextRefusal, textCallWorstCase } from './text-call-worst-case.js';
import { sendText } from './send-text.js';

/** A request body as read, possibly rewritten by an endpoint's own step before routing. */
export interface PreparedBody {
  readonly parsedBody: Record<string, unknown>;
  readonly rawBody: string;
  /** Sees the committed answer before it is sent, and may watch it on its way (stored responses). */
  readonly deliver?: (outcome: CallOutcome) => CallOutcome;
}

/** An endpoint's own step between reading the body and routing it. */
export type PrepareBody = (body: PreparedBody, key: ApiKeyRecord | undefined) => Promise<PreparedBody>;

/** A text call once decoded: the body (as prepared), its decoded request and the model it names. */
export interface DecodedText extends PreparedBody {
  /** Undefined when the body holds content only a same-format upstream can take (`refusal` says why). */
  readonly request: IrRequest | undefined;
  readonly refusal: GatewayError | undefined;
  readonly model: CatalogModel;
  readonly forwarded: Record<string, string>;
  /** The bytes as read, while the body passed on is still the one read. */
  readonly rawBytes: Buffer | undefined;
}

/** A text answer: the committed upstream answer and the route that served it. */
export interface TextAnswer extends MeteredAnswer, CallOutcome {
  readonly completion: Promise<CallCompletion>;
  readonly route: CatalogRoute;
}

/**
 * One text generation endpoint (chat, Responses, Messages), whatever the client format: read and
 * decode the body, resolve the model, then pass through or translate on each route in turn until
 * one answers (`send-text.ts`). One object per endpoint, made at start: its steps are methods.
 */
export class TextEndpoint implements MeteredEndpoint<JsonRequest, DecodedText, TextAnswer> {
  readonly uncached = true;

  constructor(
    readonly family: EndpointFamily,
    readonly format: ClientFormat,
    private readonly prepare: PrepareBody | undefined,
  ) {}

  read(call: MeteredCall): Promise<JsonRequest> {
    return readJsonRequest(call, this.format.name);
  }

  decode(call: MeteredCall, asked: JsonRequest): DecodedText | Promise<DecodedText> {
    const read: PreparedBody = { rawBody: asked.rawBody, parsedBody: parseJsonObject(asked.rawBody) };
    if (this.prepare === undefined) return this.decodePrepared(call, asked, read);
    return this.prepare(read, call.key).then((prepared) => this.decodePrepared(call, asked, prepared));
  }

  private decodePrepared(call: MeteredCall, asked: JsonRequest, prepared: PreparedBody): DecodedText {
    const { request, refusal } = decodeForRouting(this.format, prepared.parsedBody);
    const model = resolveModel(call.snapshot.catalog, request?.model ?? (prepared.parsedBody.model as string), 'text', call.key);
    return {
      rawBody: prepared.rawBody,
      parsedBody: prepared.parsedBody,
      deliver: prepared.deliver,
      request,
      refusal,
      model,
      forwarded: asked.forwarded,
      rawBytes: prepared.rawBody === asked.rawBody ? asked.rawBytes : undefined,
    };
  }

  worstCase(call: MeteredCall, decoded: DecodedText): bigint {
    return textCallWorstCase(this.format.name, decoded, call.startedAt);
  }

  explainRefusal(refusal: unknown, _call: MeteredCall, decoded: DecodedText): unknown {
    return explainTextRefusal(this.format.name, refusal, decoded);
  }

  send(call: MeteredCall, decoded: DecodedText): Promise<TextAnswer> {
    return sendText(call, this.family, this.format, decoded);
  }

  /**
   * The entry is written once the answer has been delivered or dropped: a stream's when it ends (the
   * writer knows one is coming), a whole answer's at once. Either comes back promised, so the call's
   * limits finish after its answer's rate-limit headers were taken: they show the window as the call
   * found it.
   */
  meter(ledger: LedgerWriter, call: MeteredCall, decoded: DecodedText, answer: TextAnswer): Promise<LedgerEntry> {
    try {
      const entry = meterCall(ledger, answer, this.meteringFacts(call, decoded, answer.route));
      return entry instanceof Promise ? ledger.awaiting(entry) : Promise.resolve(entry);
    } catch (error) {
      // A delivered call whose metering failed is the pipeline's to report, as when a promised entry fails.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  meterFailure(ledger: LedgerWriter, call: MeteredCall, decoded: DecodedText, status: number): LedgerEntry {
    return meterFailedCall(ledger, this.meteringFacts(call, decoded, undefined), status);
  }

  private meteringFacts(call: MeteredCall, decoded: DecodedText, route: CatalogRoute | undefined): MeteringFacts {
    return { requestId: call.requestId, key: call.key, model: decoded.model, route, family: this.family, rawBodyLength: decoded.rawBody.length, startedAt: call.startedAt };
  }
}

/**
 * Decodes the body. Content the gateway cannot translate (a block type newer than this gateway)
 * is no reason to refuse a call that a same-format upstream can take as it is: the refusal is
 * kept and raised only if a route needs translation.
 */
function decodeForRouting(format: ClientFormat, body: Record<string, unknown>): { request: IrRequest; refusal: undefined } | { request: undefined; refusal: GatewayError } {
  try {
    return { request: format.decodeRequest(body), refusal: undefined };
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'unsupported_content' && typeof body.model === 'string' && body.model !== '') {
      return { request: undefined, refusal: error };
    }
    throw error;
  }
}
