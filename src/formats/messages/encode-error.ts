import type { GatewayError } from '../../errors/gateway-error.js';
import { errorTypeForStatus, isMessagesErrorType, messagesSseEvent, statusForErrorType } from '../../wire/messages/index.js';
import type { MessagesErrorBody, MessagesErrorType } from '../../wire/messages/index.js';
import type { EncodedError } from '../client-format.js';

/**
 * The Messages error type for a GatewayError: the upstream's own type when an Anthropic upstream
 * gave one of the same status class, otherwise the type Messages uses for the status. The class
 * check matters: an upstream `authentication_error` about the gateway's own credential is sent
 * as a 502, and calling it an authentication error would tell the client its key is wrong.
 */
export function messagesErrorType(error: GatewayError): MessagesErrorType {
  const upstreamType = error.upstreamType;
  if (upstreamType !== undefined && isMessagesErrorType(upstreamType)) {
    if (Math.floor(statusForErrorType(upstreamType) / 100) === Math.floor(error.status / 100)) return upstreamType;
  }
  return errorTypeForStatus(error.status);
}

function errorBody(error: GatewayError, requestId: string): MessagesErrorBody {
  return { type: 'error', error: { type: messagesErrorType(error), message: error.message }, request_id: requestId };
}

/** `{type:"error", error:{type, message}, request_id}` with the GatewayError's status. */
export function encodeMessagesError(error: GatewayError, requestId: string): EncodedError {
  return { status: error.status, body: errorBody(error, requestId) };
}

/** An error after the stream started: one `event: error`; Messages sends no message_stop after it. */
export function encodeMessagesStreamError(error: GatewayError, requestId: string): string {
  return messagesSseEvent('error', errorBody(error, requestId));
}
