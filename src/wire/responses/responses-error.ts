import { GatewayError } from '../../errors/gateway-error.js';
import { isRecord, readString } from '../../json/json-value.js';
import { openAIErrorCode } from '../chat/openai-error-body.js';
import type { ResponsesErrorObject } from './responses-wire-types.js';

export interface ResponsesErrorFields {
  readonly message: string;
  readonly type?: string;
  readonly code?: string;
  readonly param?: string;
}

/**
 * The error carried by a stream `error` event or by `response.failed`'s `response.error`. The
 * OpenAPI spec has the event flat (`{type:"error", code, message, param}`) while recorded OpenAI
 * traffic nests it (`{type:"error", error:{type, code, message, param}}`): both are read.
 */
export function parseResponsesError(payload: unknown): ResponsesErrorFields | undefined {
  if (!isRecord(payload)) return undefined;
  const nested = payload['error'];
  const source = isRecord(nested) ? nested : payload;
  const message = readString(source, 'message');
  if (message === undefined || message === '') return undefined;
  const type = readString(source, 'type');
  const code = readString(source, 'code');
  const param = readString(source, 'param');
  return {
    message,
    // The flat event's `type` is the event name ("error"), not an error type.
    ...(type === undefined || (source === payload && type === 'error') ? {} : { type }),
    ...(code === undefined ? {} : { code }),
    ...(param === undefined ? {} : { param }),
  };
}

const rateLimitCodes: ReadonlySet<string> = new Set(['rate_limit_exceeded', 'insufficient_quota']);
const clientErrorCodes: ReadonlySet<string> = new Set([
  'invalid_request_error',
  'context_length_exceeded',
  'invalid_prompt',
  'invalid_image',
  'invalid_image_format',
  'invalid_base64_image',
  'invalid_image_url',
  'image_too_large',
  'image_too_small',
  'image_parse_error',
  'image_content_policy_violation',
  'invalid_image_mode',
  'image_file_too_large',
  'unsupported_image_media_type',
  'empty_image_file',
  'failed_to_download_image',
  'image_file_not_found',
]);

/**
 * An error reported inside a Responses stream (no HTTP status exists by then) as a GatewayError,
 * keeping the upstream's code or type so a Responses client is shown the same one.
 */
export function gatewayErrorFromResponses(fields: ResponsesErrorFields | undefined): GatewayError {
  const message = fields?.message ?? 'The upstream reported an error during the stream.';
  const upstreamType = fields?.code ?? fields?.type;
  const options = upstreamType === undefined ? {} : { upstreamType };
  const kind = [fields?.code, fields?.type].find((value) => value !== undefined && (rateLimitCodes.has(value) || clientErrorCodes.has(value)));
  if (kind !== undefined && rateLimitCodes.has(kind)) return new GatewayError('upstream_rate_limited', message, options);
  if (kind !== undefined) return new GatewayError('upstream_client_error', message, options);
  return new GatewayError('upstream_error', message, options);
}

/**
 * `response.error` for a failed response. Codex reads `code` to decide what to do
 * (`context_length_exceeded`, `insufficient_quota` and `rate_limit_exceeded` are special), so an
 * upstream code is passed on and gateway failures use OpenAI's own codes.
 */
export function responsesErrorObject(error: GatewayError): ResponsesErrorObject {
  if (error.upstreamType !== undefined && (rateLimitCodes.has(error.upstreamType) || clientErrorCodes.has(error.upstreamType))) {
    return { code: error.upstreamType, message: error.message };
  }
  if (error.status >= 500) return { code: 'server_error', message: error.message };
  return { code: openAIErrorCode(error), message: error.message };
}
