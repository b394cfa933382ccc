import type { GatewayError } from '../../errors/gateway-error.js';
import { openAIErrorBody } from '../../wire/chat/openai-error-body.js';

/**
 * One event of the Images API stream as OpenAI writes it: the type both as the SSE `event:` name
 * and as the payload's `type`, so readers that look at either find it.
 */
export function imageEventFrame(type: string, payload: Readonly<Record<string, unknown>>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

/**
 * A failure after the stream started, in OpenAI's shape for image streams: `event: error` with
 * `{type:"error", error:{type, code, message, param}}` — the nested object is what the `openai`
 * SDK raises as an `APIError`.
 */
export function imageErrorFrame(error: GatewayError, requestId: string): string {
  return imageEventFrame('error', { error: openAIErrorBody(error, requestId).error });
}
