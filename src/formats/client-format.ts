import type { GatewayError } from '../errors/gateway-error.js';
import type { FormatName, IrRequest, IrResponse, IrStreamEvent, Usage } from '../ir/index.js';

/** What an encoder needs to know about the call it is answering. */
export interface EncodeContext {
  readonly requestId: string;
  /** The model id to show the client (the public id it asked for). */
  readonly model: string;
  readonly request: IrRequest;
  /**
   * The gateway's own count of the request's input tokens, for formats whose stream states them
   * at the start when the upstream states them only at the end (see `inputTokensAtStreamStart`).
   */
  readonly inputTokensEstimate?: number;
}

/** Turns canonical stream events into the client's SSE text, one call per event. */
export interface StreamEncoder {
  /** SSE text for one event ('' when the format has nothing to say for it). */
  encode(event: IrStreamEvent): string;
  /** A keep-alive the format's clients tolerate while the upstream is slow ('' when none). */
  keepAlive(): string;
}

/** Reads usage from an upstream's raw stream in this format, without re-serialising it. */
export interface UsageTap {
  /** One SSE event as it arrived: its `event:` name (if any) and raw `data:` text. */
  observe(eventName: string | undefined, data: string): void;
  /** Usage seen so far (undefined when the stream carried none). */
  usage(): Usage | undefined;
  /** Whether the stream reached its format's last event (or an error event that ends it). */
  ended(): boolean;
}

export interface EncodedError {
  readonly status: number;
  readonly body: unknown;
}

/** An ingress codec: one client wire format. */
export interface ClientFormat {
  readonly name: FormatName;
  /**
   * Its streams state the input tokens in their first event, and clients read them only there
   * (Messages `message_start`): a translated stream gets an estimate when the upstream is silent.
   */
  readonly inputTokensAtStreamStart: boolean;
  /** Validates a parsed JSON body and decodes it; throws GatewayError with `param` on bad input. */
  decodeRequest(body: unknown): IrRequest;
  encodeResponse(response: IrResponse, context: EncodeContext): unknown;
  createStreamEncoder(context: EncodeContext): StreamEncoder;
  /** The error body in this format's shape; the request id goes in the body too. */
  encodeError(error: GatewayError, requestId: string): EncodedError;
  /** In-stream error text for an error after the stream has started. */
  encodeStreamError(error: GatewayError, requestId: string): string;
  /** Passthrough: usage from a non-streamed upstream body of this format. */
  usageFromBody(body: unknown): Usage | undefined;
  /** Passthrough: usage from a streamed upstream response of this format. */
  createUsageTap(): UsageTap;
  /**
   * Passthrough: the answer text one raw stream event carries ('' for none), read only for a
   * stream cut before its usage came, to count the output the client was sent.
   */
  streamEventText(data: string): string;
  /**
   * Passthrough: a cheap test, run on every relayed event, of whether it can carry answer text
   * (false for the rest, whose size must not count as output).
   */
  streamEventCarriesText(data: string): boolean;
}
