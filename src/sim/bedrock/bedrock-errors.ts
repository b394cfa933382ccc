import type { ServerResponse } from 'node:http';
import { errorBody } from '../error-bodies.js';
import { sendJson } from '../send-json.js';

/** Bedrock Runtime's error type for each status it answers (its API reference, "Errors"). */
const typesByStatus: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

export function bedrockErrorType(status: number): string {
  return typesByStatus[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException');
}

/** The type travels in `x-amzn-errortype`, suffixed with the service's namespace as AWS sends it. */
export function bedrockErrorHeaders(status: number, type = bedrockErrorType(status)): Record<string, string> {
  return { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'sim-request-id' };
}

/** A refusal in Bedrock's shape: `{"message"}` with the type in its header. */
export function sendBedrockError(response: ServerResponse, status: number, message: string, type = bedrockErrorType(status)): void {
  sendJson(response, status, errorBody('bedrock', status, message, ''), bedrockErrorHeaders(status, type));
}
