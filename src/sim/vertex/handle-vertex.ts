import type { IncomingMessage, ServerResponse } from 'node:http';
import { geminiEndpoint } from '../encode-gemini.js';
import { errorBody } from '../error-bodies.js';
import { extractGemini } from '../extract-gemini.js';
import type { GenerationRoute, SimulatorState } from '../handle-generation.js';
import { handleGeneration } from '../handle-generation.js';
import { asksForImageOutput } from '../images/asks-for-image-output.js';
import { loadMediaEndpoints } from '../load-media-endpoints.js';
import { inputTokensFor } from '../plan-reply.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { handleVertexClaude } from './vertex-claude.js';

/** `/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method}`. */
export const vertexPath = /^\/v1\/(projects\/[^/]+\/locations\/[^/]+\/publishers\/(google|anthropic)\/models\/([^/:]+)):([A-Za-z]+)$/;

/** Vertex's answer to a call without an access token, as Google words it. */
const unauthenticated = 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

function googleError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, errorBody('gemini', status, message, ''));
}

/**
 * Vertex AI's model methods. A call must carry an OAuth2 bearer token, but any non-empty one is
 * taken: the simulator is not an authorization server, and any project and location are served.
 * Google's models: `generateContent` / `streamGenerateContent` (Gemini's shapes, image output
 * included), `countTokens`, Imagen's `predict`, Veo's `predictLongRunning` and
 * `fetchPredictOperation`. Anthropic's: see vertex-claude.ts.
 */
export async function handleVertex(request: IncomingMessage, response: ServerResponse, url: URL, path: string, state: SimulatorState): Promise<void> {
  const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
  const match = vertexPath.exec(path);
  if (bearer === undefined || bearer === '' || match === null || request.method !== 'POST') {
    request.resume();
    if (bearer === undefined || bearer === '') googleError(response, 401, unauthenticated);
    else googleError(response, 404, 'The requested URL was not found on this server.');
    return;
  }
  const [, modelPath = '', publisher, encodedModel = '', method = ''] = match;
  const model = decodeURIComponent(encodedModel);
  if (publisher === 'anthropic') {
    if (method !== 'rawPredict' && method !== 'streamRawPredict') return notFound(request, response);
    await handleVertexClaude(request, response, model, method, await readJsonBody(request), state);
    return;
  }
  if (method === 'predict') return (await loadMediaEndpoints()).handleImagenPredict(request, response, state);
  if (method === 'predictLongRunning' || method === 'fetchPredictOperation') return (await loadMediaEndpoints()).handleVertexVeo(method, modelPath, model, request, response);
  if (method !== 'generateContent' && method !== 'streamGenerateContent' && method !== 'countTokens') return notFound(request, response);
  const parsed = await readJsonBody(request);
  if (method === 'countTokens') {
    if (parsed.kind !== 'ok') return googleError(response, 400, parsed.kind === 'too-large' ? 'The request body is too large.' : parsed.message);
    sendJson(response, 200, { totalTokens: inputTokensFor(extractGemini(parsed.body, model).inputCharacters) });
    return;
  }
  const delivery = method === 'generateContent' ? 'json' : url.searchParams.get('alt') === 'sse' ? 'sse' : 'json-array';
  const route: GenerationRoute = { endpoint: geminiEndpoint, delivery, pathModel: model };
  // The same methods make pictures when the body asks for IMAGE output, as on the Gemini API.
  if (parsed.kind === 'ok' && asksForImageOutput(parsed.body)) await (await loadMediaEndpoints()).handleGeminiImage(request, response, parsed.body, route, state);
  else await handleGeneration(request, response, route, state, parsed);
}

function notFound(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  googleError(response, 404, 'The requested URL was not found on this server.');
}
