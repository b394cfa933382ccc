import type { GatewayError } from '../../errors/gateway-error.js';
import { openAIErrorBody } from '../../wire/chat/openai-error-body.js';
import type { EncodedError } from '../client-format.js';

/**
 * A GatewayError in OpenAI's error shape `{error:{message,type,param,code}}`, with the request id
 * added inside `error` (SDKs ignore unknown fields). The body itself is built in wire/chat so the
 * responses format names errors identically.
 */
export function encodeOpenAIError(error: GatewayError, requestId: string): EncodedError {
  return { status: error.status, body: openAIErrorBody(error, requestId) };
}

/** An error after a chat stream started: one `data:` event and no `[DONE]` after it. */
export function encodeOpenAIStreamError(error: GatewayError, requestId: string): string {
  return `data: ${JSON.stringify(encodeOpenAIError(error, requestId).body)}\n\n`;
}
