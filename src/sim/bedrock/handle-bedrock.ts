import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GenerationRoute, SimulatorState } from '../handle-generation.js';
import { handleGeneration } from '../handle-generation.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { sendBedrockError } from './bedrock-errors.js';
import { checkAwsAuthorization } from './check-aws-authorization.js';
import { countBedrockTokens } from './count-tokens.js';
import { converseEndpoint } from './encode-converse.js';
import { chunkFraming, loadEventStreamCodec, namedEventFraming } from './event-stream-framing.js';
import { checkClaudeBody, invokeEndpoint } from './invoke-endpoint.js';

/** Bedrock Runtime's model operations: `/model/{modelId}/{operation}`, the id one escaped segment. */
export const bedrockPath = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream|count-tokens)$/;

/** A foundation model id, an inference profile (`us.anthropic.…`) or an ARN naming Anthropic's model. */
function isAnthropicModel(model: string): boolean {
  return /(?:^|[./])anthropic\./.test(model);
}

/**
 * Bedrock Runtime: InvokeModel and InvokeModelWithResponseStream for Claude (the Messages body with
 * Bedrock's `anthropic_version`), Converse and ConverseStream for any model, CountTokens. Every call
 * must carry a well-formed credential (see check-aws-authorization.ts); errors come in Bedrock's shape.
 */
export async function handleBedrock(request: IncomingMessage, response: ServerResponse, path: string, state: SimulatorState): Promise<void> {
  const refusal = checkAwsAuthorization(request.headers);
  const match = bedrockPath.exec(path);
  if (refusal !== undefined || match === null || request.method !== 'POST') {
    request.resume();
    if (refusal !== undefined) sendBedrockError(response, 403, refusal.message, refusal.type);
    else sendBedrockError(response, 404, 'Unknown operation', 'UnknownOperationException');
    return;
  }
  const model = decodeURIComponent(match[1] ?? '');
  const operation = match[2];
  const parsed = await readJsonBody(request);
  if (parsed.kind !== 'ok') {
    if (parsed.kind === 'too-large') sendBedrockError(response, 413, 'The request body is too large.', 'ValidationException');
    else sendBedrockError(response, 400, 'Malformed input request, please reformat your input and try again.');
    return;
  }
  const body = parsed.body;
  if (operation === 'count-tokens') {
    const counted = countBedrockTokens(body, model);
    if (typeof counted === 'string') sendBedrockError(response, 400, counted);
    else sendJson(response, 200, counted, { 'x-amzn-requestid': `req_count_${state.nextSequence()}` });
    return;
  }
  const stream = operation === 'invoke-with-response-stream' || operation === 'converse-stream';
  let route: GenerationRoute;
  if (operation === 'converse' || operation === 'converse-stream') {
    if (!Array.isArray(body.messages)) return sendBedrockError(response, 400, 'Malformed input request: messages is required.');
    route = { endpoint: converseEndpoint, delivery: stream ? 'framed' : 'json', pathModel: model, ...(stream ? { framing: namedEventFraming(await loadEventStreamCodec()) } : {}) };
  } else {
    if (!isAnthropicModel(model)) return sendBedrockError(response, 400, `The simulator answers InvokeModel for Anthropic models only; call ${model} through Converse.`);
    const problem = checkClaudeBody(body);
    if (problem !== undefined) return sendBedrockError(response, 400, problem);
    route = { endpoint: invokeEndpoint, delivery: stream ? 'framed' : 'json', pathModel: model, ...(stream ? { framing: chunkFraming(await loadEventStreamCodec()) } : {}) };
  }
  await handleGeneration(request, response, route, state, parsed);
}
