import type { GatewayError } from '../../errors/gateway-error.js';
import { openAIErrorBody } from '../../wire/chat/openai-error-body.js';
import { responsesErrorObject } from '../../wire/responses/responses-error.js';
import type { EncodedError } from '../client-format.js';
import { responseId } from './response-ids.js';

/** A GatewayError in OpenAI's error shape, the same body the chat format sends. */
export function encodeResponsesError(error: GatewayError, requestId: string): EncodedError {
  return { status: error.status, body: openAIErrorBody(error, requestId) };
}

/**
 * The fields of a stream `error` event. OpenAI's spec has them flat while its servers nest them
 * under `error`; both are written so either kind of reader finds them (the openai SDK prefers the
 * nested object, the flat fields match the published event schema).
 */
export function responsesErrorEventFields(error: GatewayError): Record<string, unknown> {
  const body = openAIErrorBody(error, '').error;
  const nested = { type: body.type, code: body.code, message: body.message, param: body.param };
  return { code: body.code, message: body.message, param: body.param, error: nested };
}

/**
 * An error after the stream started, written without the encoder's state (the server uses it
 * when the upstream connection breaks): an `error` event, then `response.failed`, which is the
 * terminal event Codex needs to stop waiting and read `response.error.code`.
 */
export function encodeResponsesStreamError(error: GatewayError, requestId: string): string {
  const failed = {
    id: responseId('', requestId),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'failed',
    error: responsesErrorObject(error),
    incomplete_details: null,
    output: [],
    usage: null,
  };
  return (
    `event: error\ndata: ${JSON.stringify({ type: 'error', ...responsesErrorEventFields(error) })}\n\n` +
    `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', response: failed })}\n\n`
  );
}
