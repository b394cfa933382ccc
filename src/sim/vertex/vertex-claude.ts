import type { IncomingMessage, ServerResponse } from 'node:http';
import { messagesEndpoint } from '../encode-messages.js';
import { errorBody } from '../error-bodies.js';
import { extractMessages } from '../extract-messages.js';
import type { SimulatorState } from '../handle-generation.js';
import { handleGeneration } from '../handle-generation.js';
import { inputTokensFor } from '../plan-reply.js';
import type { BodyResult } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import type { SimEndpoint } from '../sim-endpoint.js';

/** The Messages API version Vertex requires in Claude's body. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/** Claude on Vertex: the Messages answers, for the model the path names (the body names none). */
const vertexClaudeEndpoint: SimEndpoint = {
  ...messagesEndpoint,
  extract: (body, pathModel) => ({ ...extractMessages(body), model: pathModel ?? 'sim-model' }),
};

function invalidRequest(response: ServerResponse, message: string): void {
  sendJson(response, 400, errorBody('anthropic', 400, message, 'req_sim_vertex'));
}

/**
 * `publishers/anthropic/models/{model}:rawPredict` and `:streamRawPredict` (the Messages body, its
 * SSE stream), and `count-tokens:rawPredict`. As Vertex does, the body must carry
 * `anthropic_version: vertex-2023-10-16`; a model call's body names no `model` (the path does),
 * while a count's names it (its path names none). Refusals in Anthropic's shape.
 */
export async function handleVertexClaude(request: IncomingMessage, response: ServerResponse, model: string, method: 'rawPredict' | 'streamRawPredict', parsed: BodyResult, state: SimulatorState): Promise<void> {
  if (parsed.kind !== 'ok') {
    const status = parsed.kind === 'too-large' ? 413 : 400;
    sendJson(response, status, errorBody('anthropic', status, parsed.kind === 'too-large' ? 'The request body is too large.' : parsed.message, 'req_sim_vertex'));
    return;
  }
  const body = parsed.body;
  if (body.anthropic_version !== vertexAnthropicVersion) return invalidRequest(response, `anthropic_version: Input should be '${vertexAnthropicVersion}'`);
  const counting = model === 'count-tokens';
  if (counting && typeof body.model !== 'string') return invalidRequest(response, 'model: Field required');
  if (!counting && body.model !== undefined) return invalidRequest(response, 'model: Extra inputs are not permitted');
  if (counting) {
    sendJson(response, 200, { input_tokens: inputTokensFor(extractMessages(body).inputCharacters) });
    return;
  }
  await handleGeneration(request, response, { endpoint: vertexClaudeEndpoint, delivery: method === 'streamRawPredict' ? 'sse' : 'json', pathModel: model }, state, parsed);
}
