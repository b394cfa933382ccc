import type { JsonRecord } from '../json/json-value.js';
import type { SimWireFamily } from './error-bodies.js';
import type { SimReply } from './plan-reply.js';
import type { SimConversation } from './sim-conversation.js';
import type { SimIdentity } from './sim-ids.js';

/** One stream event before framing: `event` is the SSE event name where the format uses one. */
export interface SimStreamEvent {
  readonly event?: string;
  /** A JSON value, or a raw string sent as-is (the chat `[DONE]` terminator). */
  readonly data: unknown;
}

export interface EncodeContext {
  readonly identity: SimIdentity;
  readonly model: string;
  readonly request: JsonRecord;
}

/** A generation endpoint: how to read its requests and write its replies. */
export interface SimEndpoint {
  readonly family: SimWireFamily;
  extract(body: JsonRecord, pathModel: string | undefined): SimConversation;
  encodeJson(reply: SimReply, context: EncodeContext): unknown;
  encodeStream(reply: SimReply, context: EncodeContext): SimStreamEvent[];
  /** Extra response headers in the vendor's style (request ids). */
  headers(context: EncodeContext): Record<string, string>;
  /** Headers an error answer carries besides its body (Bedrock's `x-amzn-errortype`). */
  errorHeaders?(status: number): Record<string, string>;
}

/** A stream framed other than as SSE or a JSON array: AWS's binary event stream. */
export interface StreamFraming {
  readonly contentType: string;
  frame(events: readonly SimStreamEvent[]): Uint8Array[];
}

export function frameSse(event: SimStreamEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return event.event === undefined ? `data: ${data}\n\n` : `event: ${event.event}\ndata: ${data}\n\n`;
}
