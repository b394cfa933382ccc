import { checkNovaCanvasBody, checkStabilityBody, imageModelFamily } from './image-answers.js';
import { verifySigV4, type ReceivedCall, type SigningSecret } from './verify-sigv4.js';

/** Bedrock Runtime's operations under `/model/{modelId}/`. */
export type BedrockOperation = 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream' | 'count-tokens';
const operations: ReadonlySet<string> = new Set(['invoke', 'invoke-with-response-stream', 'converse', 'converse-stream', 'count-tokens']);

/** What a stand-in for Bedrock accepts: signatures by this secret in this region, or this API key as a bearer. */
export interface BedrockCallChecks {
  readonly region: string;
  readonly secret: SigningSecret;
  readonly apiKey?: string;
}

/** A call that passed Bedrock's checks, or the refusal Bedrock would answer it with. */
export type BedrockVerdict =
  | { readonly ok: true; readonly modelId: string; readonly operation: BedrockOperation; readonly invokeBody: Record<string, unknown> | undefined }
  | { readonly ok: false; readonly status: number; readonly errorType: string; readonly message: string };

/**
 * The checks Bedrock makes before a model sees a call, in its order: the credential (SigV4
 * recomputed with the secret, or the API key), the operation, then the body: an InvokeModel body
 * for Claude must carry Bedrock's `anthropic_version` and no `model` or `stream` (Bedrock refuses
 * them as extraneous keys), and an image model's body must hold what that model takes. `invokeBody` is the InvokeModel body, the call's own or the one a
 * CountTokens call wraps.
 */
export function checkBedrockCall(call: ReceivedCall, checks: BedrockCallChecks): BedrockVerdict {
  const authorization = call.headers['authorization'] ?? '';
  if (authorization.startsWith('Bearer ')) {
    if (checks.apiKey === undefined || authorization !== `Bearer ${checks.apiKey}`) {
      return { ok: false, status: 403, errorType: 'AccessDeniedException', message: 'Authentication failed: Please make sure your API Key is valid.' };
    }
  } else {
    const verdict = verifySigV4(call, checks.secret, checks.region, 'bedrock');
    if (!verdict.ok) return { ok: false, status: 403, errorType: verdict.errorType, message: verdict.message };
  }
  const match = /^\/model\/([^/]+)\/([a-z-]+)$/.exec(call.target);
  if (match === null || call.method !== 'POST' || !operations.has(match[2] ?? '')) {
    return { ok: false, status: 404, errorType: 'UnknownOperationException', message: 'Unknown operation' };
  }
  const operation = match[2] as BedrockOperation;
  const modelId = decodeURIComponent(match[1] ?? '');
  const checked = checkBody(operation, call.body.toString('utf8'), modelId);
  if (typeof checked === 'string') return { ok: false, status: 400, errorType: 'ValidationException', message: checked };
  return { ok: true, modelId, operation, invokeBody: checked };
}

/** The headers of Bedrock's refusal: its type travels in `x-amzn-ErrorType`, the body holds only `{"message"}`. */
export function bedrockErrorHeaders(errorType: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'fake-request-id' };
}

/** The checks Bedrock makes of a body before the model sees it; a string is the refusal's message. */
function checkBody(operation: BedrockOperation, text: string, modelId: string): Record<string, unknown> | undefined | string {
  const body = parseObject(text);
  if (body === undefined) return 'Malformed input request, please reformat your input and try again.';
  const imageFamily = imageModelFamily(modelId);
  if (imageFamily !== undefined) {
    // Image models are served by InvokeModel alone, each in its own body.
    if (operation !== 'invoke') return `The model ${modelId} does not support ${operation}.`;
    return (imageFamily === 'nova-canvas' ? checkNovaCanvasBody(body) : checkStabilityBody(body)) ?? body;
  }
  if (operation === 'converse' || operation === 'converse-stream') {
    return Array.isArray(body.messages) ? undefined : 'Malformed input request: messages is required.';
  }
  if (operation === 'count-tokens') {
    const input = asObject(body.input);
    if (input === undefined) return '1 validation error detected: Value null at \'input\' failed to satisfy constraint: Member must not be null';
    if (asObject(input.converse) !== undefined) return undefined;
    const invokeModel = asObject(input.invokeModel);
    if (invokeModel === undefined || typeof invokeModel.body !== 'string') return 'input must hold invokeModel.body or converse.';
    const wrapped = parseObject(Buffer.from(invokeModel.body, 'base64').toString('utf8'));
    if (wrapped === undefined) return 'Malformed input request, please reformat your input and try again.';
    return checkClaudeBody(wrapped) ?? wrapped;
  }
  return checkClaudeBody(body) ?? body;
}

function checkClaudeBody(body: Record<string, unknown>): string | undefined {
  const extraneous = ['model', 'stream'].filter((key) => Object.hasOwn(body, key));
  if (extraneous.length > 0) return `Malformed input request: #: extraneous key [${extraneous[0]}] is not permitted, please reformat your input and try again.`;
  if (body.anthropic_version !== 'bedrock-2023-05-31') return 'Malformed input request: #: required key [anthropic_version] not found or invalid, please reformat your input and try again.';
  if (typeof body.max_tokens !== 'number') return 'Malformed input request: #: required key [max_tokens] not found, please reformat your input and try again.';
  if (!Array.isArray(body.messages)) return 'Malformed input request: #: required key [messages] not found, please reformat your input and try again.';
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
