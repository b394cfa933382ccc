import type { GatewayError } from '../errors/gateway-error.js';
import type { FormatName } from '../formats/client-format.js';
import type { IrRequest, IrResponse, IrStreamEvent } from '../ir/index.js';

export type ProviderKind = 'openai' | 'openai-compatible' | 'anthropic' | 'gemini';

/** One upstream a route points at: which provider, where, with which credential and model. */
export interface UpstreamTarget {
  /** The operator's name for the provider in the config. */
  readonly providerName: string;
  readonly kind: ProviderKind;
  /** API root as the vendor's SDK takes it, normalised without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** The upstream's own model id. */
  readonly model: string;
  /** Extra headers the operator configured for this provider. */
  readonly headers?: Readonly<Record<string, string>>;
  /** An OpenAI-compatible server that also serves the Responses API, so Responses clients pass through. */
  readonly servesResponses?: boolean;
}

/** Client headers a provider may forward (Anthropic `anthropic-beta`, `anthropic-version`). */
export type ForwardedHeaders = Readonly<Record<string, string>>;

export interface UpstreamHttpRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Turns one upstream SSE stream into canonical events; holds its state in the closure. */
export interface StreamDecoder {
  /** One SSE event: its `event:` name (if any) and `data:` text. */
  push(eventName: string | undefined, data: string): IrStreamEvent[];
  /**
   * The upstream closed the stream. Closes every block still open and, when the stream ended
   * before its terminal event, ends with an `error` event.
   */
  end(): IrStreamEvent[];
}

/** An egress adapter: one upstream API kind. Pure translation; the HTTP call is made elsewhere. */
export interface ProviderAdapter {
  readonly kind: ProviderKind;
  /** Client formats this upstream speaks natively, so such clients are passed through. */
  readonly nativeFormats: readonly FormatName[];
  buildRequest(request: IrRequest, target: UpstreamTarget, forwarded: ForwardedHeaders): UpstreamHttpRequest;
  decodeResponse(body: unknown, request: IrRequest): IrResponse;
  createStreamDecoder(request: IrRequest): StreamDecoder;
  /** Maps an upstream error response to a GatewayError (status class kept, no credentials or URLs). */
  decodeError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError;
  /** Passthrough: the URL for a client format's call (stream flag needed by Gemini-style APIs). */
  passthroughUrl(format: FormatName, target: UpstreamTarget): string;
  /** Auth and required headers for the upstream (credential included). */
  upstreamHeaders(target: UpstreamTarget, forwarded: ForwardedHeaders): Record<string, string>;
}
