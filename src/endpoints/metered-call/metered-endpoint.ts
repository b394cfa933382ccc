import type { ChunkStream } from '../../call/commit-stream.js';
import type { ClientFormat } from '../../formats/client-format.js';
import type { EndpointFamily } from '../../keys/endpoint-family.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { LedgerWriter } from '../../metering/ledger-writer.js';
import type { MeteredCall } from './metered-call-state.js';

/**
 * A generation endpoint as the metered-call pipeline (`metered-call.ts`) runs it. The pipeline
 * owns everything a paid call meets alike — authentication, the key's endpoint scope, admission
 * against its rate limits, the reservation of its worst case, settlement, the rate-limit headers,
 * `x-request-id`, `x-request-cost-usd`, the error in the client's shape, the one ledger entry of a
 * call that failed after validation, and the release of what it held — and asks the endpoint only
 * what differs:
 *
 *   read ─► (admitted) ─► decode ─► worstCase (reserved) ─► send ─► meter
 *
 * A new endpoint (embeddings, speech, transcription) is one declaration: a `read` of its body,
 * a `decode` that resolves its model, a `worstCase` from its price, a `send` that calls the
 * upstream and a `meter` that hands what it delivered to metering/ to build its entry.
 *
 * Type parameters: `Asked` is what `read` took from the request, `Decoded` what `decode` made of
 * it (the model among it), `Answer` what `send` delivered (its body, and what it is metered by).
 */
export interface MeteredEndpoint<Asked, Decoded, Answer extends MeteredAnswer> {
  /** The key scope the call needs, and the ledger's `endpoint`. */
  readonly family: EndpointFamily;
  /** The client's wire format: the shape of its errors and which family of rate-limit headers it reads. */
  readonly format: ClientFormat;
  /** Every answer says `cache-control: no-cache`, whole or streamed (a stream always does). */
  readonly uncached?: boolean;
  /**
   * The request as sent, before the call counts against the key's limits: its content type and
   * body. A failure here is the client's mistake and costs it no request.
   */
  read(call: MeteredCall): Asked | Promise<Asked>;
  /**
   * After admission: the model and its rules, the request the upstream gets. A failure here
   * carries the rate-limit headers and leaves no ledger entry.
   */
  decode(call: MeteredCall, asked: Asked): Decoded | Promise<Decoded>;
  /**
   * The most the call can cost, in nano-USD, reserved against the key's budgets before anything
   * is sent; asked only of a key with a budget. It throws what cannot be kept on a budget (an
   * unpriced model, a part of the request the ledger would not see). Undefined: the call reserves
   * nothing here (it costs nothing, or reserves from `send` what outlives it: a video job).
   */
  readonly worstCase: ((call: MeteredCall, decoded: Decoded) => bigint) | undefined;
  /** What a budget's refusal of the worst case should add for this request (the cap field that lowers it). */
  readonly explainRefusal?: (refusal: unknown, call: MeteredCall, decoded: Decoded) => unknown;
  /** The upstream call, after which the call is on the ledger even if it fails. */
  send(call: MeteredCall, decoded: Decoded): Promise<Answer>;
  /**
   * Hands what was delivered to metering/, which builds and records the call's one ledger entry
   * (now, or when a stream ends). Undefined: a call that is never on the ledger (`count_tokens`)
   * or whose entry comes later (a video job's: its reservation, made in `send`, is the job's).
   */
  readonly meter: ((ledger: LedgerWriter, call: MeteredCall, decoded: Decoded, answer: Answer) => LedgerEntry | Promise<LedgerEntry>) | undefined;
  /** The entry of a call that got past `decode` and its reservation but failed: nothing delivered, at 0. */
  readonly meterFailure: ((ledger: LedgerWriter, call: MeteredCall, decoded: Decoded, status: number) => LedgerEntry) | undefined;
}

/** What `send` answers the client with; an endpoint's own type adds what it is metered by. */
export interface MeteredAnswer {
  readonly contentType: string;
  /** A whole body (its cost goes with it when it is known) or a stream (its cost is in the ledger at its end). */
  readonly body: string | Uint8Array | ChunkStream;
}

