import type { GatewayError } from '../../errors/gateway-error.js';
import type { ChatErrorBody } from '../../wire/chat/chat-wire-types.js';
import type { EncodedError } from '../client-format.js';

/**
 * A GatewayError in OpenAI's error shape `{error:{message,type,param,code}}`, with the request id
 * added inside `error` (SDKs ignore unknown fields). Used for every OpenAI-shaped endpoint.
 */
export function encodeOpenAIError(error: GatewayError, requestId: string): EncodedError {
  const body: ChatErrorBody = {
    error: {
      message: error.message,
      type: errorType(error),
      param: error.param ?? null,
      code: errorCode(error),
      request_id: requestId,
    },
  };
  return { status: error.status, body };
}

/** An error after a chat stream started: one `data:` event and no `[DONE]` after it. */
export function encodeOpenAIStreamError(error: GatewayError, requestId: string): string {
  return `data: ${JSON.stringify(encodeOpenAIError(error, requestId).body)}\n\n`;
}

function errorType(error: GatewayError): string {
  // OpenAI's quota error keeps its own type so clients can tell it from a transient rate limit.
  if (error.upstreamType === 'insufficient_quota') return 'insufficient_quota';
  const status = error.status;
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 500) return 'server_error';
  if (status > 500) return 'api_error';
  return 'invalid_request_error';
}

function errorCode(error: GatewayError): string {
  if (error.upstreamType === 'insufficient_quota') return 'insufficient_quota';
  if (error.status === 401) return 'invalid_api_key';
  if (error.status === 429) return 'rate_limit_exceeded';
  return error.code;
}
