/** Error bodies in each vendor's own shape, so clients' error handling sees the real thing. */

export type SimWireFamily = 'openai' | 'anthropic' | 'gemini' | 'bedrock';

export function errorBody(family: SimWireFamily, status: number, message: string, requestId: string): unknown {
  switch (family) {
    case 'openai':
      return { error: { message, ...openAiKind(status), param: null } };
    case 'anthropic':
      return { type: 'error', error: { type: anthropicType(status), message }, request_id: requestId };
    case 'gemini':
      return { error: { code: status, message, status: googleStatus(status), details: [] } };
    case 'bedrock':
      // Bedrock names the error's type in the `x-amzn-errortype` header, not in the body.
      return { message };
  }
}

function openAiKind(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 403) return { type: 'permission_denied', code: null };
  if (status === 404) return { type: 'invalid_request_error', code: 'not_found' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

const anthropicTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

function anthropicType(status: number): string {
  return anthropicTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

const googleStatuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function googleStatus(status: number): string {
  return googleStatuses[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}
