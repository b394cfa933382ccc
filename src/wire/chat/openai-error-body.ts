import { contentRefusalCodes } from '../content-refusal-codes.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { ChatErrorBody } from './chat-wire-types.js';

/**
 * A GatewayError in OpenAI's error shape `{error:{message,type,param,code}}`, with the request id
 * added inside `error` (SDKs ignore unknown fields). Shared by every OpenAI-shaped client format
 * (chat, responses), so all of them name errors the same way.
 */
export function openAIErrorBody(error: GatewayError, requestId: string): ChatErrorBody {
  return {
    error: {
      message: error.message,
      type: openAIErrorType(error),
      param: error.param ?? null,
      code: openAIErrorCode(error),
      request_id: requestId,
    },
  };
}

export function openAIErrorType(error: GatewayError): string {
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

export function openAIErrorCode(error: GatewayError): string {
  if (error.upstreamType === 'insufficient_quota') return 'insufficient_quota';
  if (error.status === 401) return 'invalid_api_key';
  if (error.status === 429) return 'rate_limit_exceeded';
  if (error.upstreamType !== undefined && contentRefusalCodes.has(error.upstreamType)) return error.upstreamType;
  return error.code;
}
