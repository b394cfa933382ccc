import type { IncomingMessage, ServerResponse } from 'node:http';
import { azureCall } from './azure-paths.js';
import { loadBflEndpoint } from './bfl/load-bfl-endpoint.js';
import { chatEndpoint } from './encode-chat.js';
import { geminiEndpoint } from './encode-gemini.js';
import { messagesEndpoint } from './encode-messages.js';
import { responsesEndpoint } from './encode-responses.js';
import { errorBody } from './error-bodies.js';
import { extractMessages } from './extract-messages.js';
import type { GenerationRoute, SimulatorState } from './handle-generation.js';
import { handleGeneration } from './handle-generation.js';
import { asksForImageOutput } from './images/asks-for-image-output.js';
import { loadCloudEndpoints } from './load-cloud-endpoints.js';
import { loadMediaEndpoints } from './load-media-endpoints.js';
import { loadRunwayEndpoints } from './load-runway-endpoints.js';
import { loadReplicatePredictions, replicatePath } from './replicate/load-replicate-predictions.js';
import { inputTokensFor } from './plan-reply.js';
import { readJsonBody } from './read-json-body.js';
import { sendJson } from './send-json.js';
import { simEpochSeconds } from './sim-ids.js';

export const simModelIds = ['sim-model', 'gpt-sim', 'claude-sim', 'gemini-sim'] as const;

const geminiPath = /^\/(?:v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
const imagenPath = /^\/(?:v1beta|v1)\/models\/([^/:]+):predict$/;
/** Bedrock Runtime's model operations and Vertex AI's project paths, answered by the cloud endpoints. */
const cloudPath = /^\/model\/|^\/v1\/projects\//;
/** Runway's task API and the simulator's stand-in for its output host. */
const runwayPath = /^\/v1\/(?:text_to_video|image_to_video|tasks\/)|^\/sim-runway-output\//;
/** Every path the video endpoints may answer (OpenAI's jobs, Veo's operations and downloads, fal's queue), and a few they decline. */
const videoPath = /^\/v1\/videos(?:\/|$)|^\/v1beta\/(?:models\/[^/]+(?::predictLongRunning$|\/operations\/)|files\/)|^\/sim-storage\/|^\/fal\//;

/** MiniMax's video paths and the simulator's downloads of them. */
const miniMaxPath = /^\/v1\/(?:video_generation|query\/video_generation|files\/retrieve)$|^\/sim-minimax-files\//;

export async function routeRequest(request: IncomingMessage, response: ServerResponse, state: SimulatorState): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://sim.invalid');
  const azure = azureCall(url.pathname, url.searchParams, request.headers);
  if (azure?.kind === 'refused') {
    request.resume();
    sendJson(response, azure.status, azure.body);
    return;
  }
  // Azure's paths are OpenAI's below its own prefix: answered as OpenAI's.
  if (azure !== undefined) url.pathname = azure.path;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = request.method ?? 'GET';

  if (method === 'GET' && path === '/health') {
    sendJson(response, 200, { status: 'ok' });
    return;
  }
  if (method === 'GET' && path === '/v1/models') {
    sendJson(response, 200, {
      object: 'list',
      data: simModelIds.map((id) => ({ id, object: 'model', created: simEpochSeconds, owned_by: 'switchyard-sim' })),
    });
    return;
  }
  if (cloudPath.test(path)) {
    const cloud = await loadCloudEndpoints();
    if (path.startsWith('/model/')) await cloud.handleBedrock(request, response, path, state);
    else await cloud.handleVertex(request, response, url, path, state);
    return;
  }
  if (url.pathname.startsWith('/bfl/')) {
    if (await (await loadBflEndpoint()).handleBfl(method, url, request, response)) return;
  }
  if (runwayPath.test(url.pathname) && (await (await loadRunwayEndpoints()).handleRunway(method, url, request, response))) return;
  if (replicatePath.test(url.pathname) && (await (await loadReplicatePredictions()).handleReplicatePredictions(method, url, request, response))) return;
  if (miniMaxPath.test(url.pathname) && (await (await loadMediaEndpoints()).handleMiniMaxVideo(method, url, request, response))) return;
  if (videoPath.test(url.pathname)) {
    const media = await loadMediaEndpoints();
    if ((await media.handleOpenAiVideos(method, url, request, response)) || (await media.handleVeo(method, url, request, response)) || (await media.handleFalQueue(method, url, request, response))) return;
  }
  if (method === 'POST') {
    const route = generationRoute(path, url.searchParams);
    if (route !== undefined && route.endpoint === geminiEndpoint) {
      // The same Gemini paths make pictures when the body asks for IMAGE output.
      const parsed = await readJsonBody(request);
      if (parsed.kind === 'ok' && asksForImageOutput(parsed.body)) await (await loadMediaEndpoints()).handleGeminiImage(request, response, parsed.body, route, state);
      else await handleGeneration(request, response, route, state, parsed);
      return;
    }
    if (route !== undefined) {
      await handleGeneration(request, response, route, state);
      return;
    }
    if (path === '/v1/images/generations') {
      await (await loadMediaEndpoints()).handleImageGeneration(request, response, state);
      return;
    }
    if (path === '/v1/images/edits') {
      await (await loadMediaEndpoints()).handleImageEdit(request, response, state);
      return;
    }
    if (imagenPath.test(path)) {
      await (await loadMediaEndpoints()).handleImagenPredict(request, response, state);
      return;
    }
    if (path === '/v1/messages/count_tokens') {
      await countTokens(request, response);
      return;
    }
  }
  request.resume();
  const message = `Unknown request URL: ${method} ${url.pathname}. The simulator serves the OpenAI, Anthropic and Gemini generation and image endpoints, Bedrock Runtime and Vertex AI.`;
  sendJson(response, 404, errorBody('openai', 404, message, ''));
}

function generationRoute(path: string, query: URLSearchParams): GenerationRoute | undefined {
  if (path === '/v1/chat/completions') return { endpoint: chatEndpoint, delivery: 'by-body' };
  if (path === '/v1/responses') return { endpoint: responsesEndpoint, delivery: 'by-body' };
  if (path === '/v1/messages') return { endpoint: messagesEndpoint, delivery: 'by-body' };
  const gemini = geminiPath.exec(path);
  if (gemini === null) return undefined;
  const pathModel = decodeURIComponent(gemini[1] ?? 'sim-model');
  if (gemini[2] === 'generateContent') return { endpoint: geminiEndpoint, delivery: 'json', pathModel };
  return { endpoint: geminiEndpoint, delivery: query.get('alt') === 'sse' ? 'sse' : 'json-array', pathModel };
}

/** Same count as the `input_tokens` a `/v1/messages` call with this body reports. */
async function countTokens(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const parsed = await readJsonBody(request);
  if (parsed.kind !== 'ok') {
    const status = parsed.kind === 'too-large' ? 413 : 400;
    const message = parsed.kind === 'too-large' ? 'The request body is too large.' : parsed.message;
    sendJson(response, status, errorBody('anthropic', status, message, 'req_sim_count_tokens'));
    return;
  }
  sendJson(response, 200, { input_tokens: inputTokensFor(extractMessages(parsed.body).inputCharacters) });
}
