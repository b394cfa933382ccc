import type { FakeTokenEndpoint } from './fake-vertex-token-endpoint.js';
// The scripted upstream's own files, not its index: that index offers the Vertex reply built on this file.
import type { ReceivedRequest } from './scripted-upstream/received-request.js';
import { json, type Reply } from './scripted-upstream/reply.js';

/** A model call that got past Vertex's checks: whose model, and which method. */
export interface VertexModelCall {
  readonly request: ReceivedRequest;
  readonly publisher: 'google' | 'anthropic';
  readonly model: string;
  /** `generateContent`, `streamGenerateContent`, `rawPredict`, `streamRawPredict`, `predict`, … */
  readonly method: string;
  readonly body: Record<string, unknown>;
}

/** What a stand-in for Vertex accepts: live tokens of this endpoint, on this project and location. */
export interface VertexCallChecks {
  readonly tokens: Pick<FakeTokenEndpoint, 'isLive'>;
  readonly project: string;
  readonly location: string;
}

/** Vertex's answer to a call without a live access token, as Google sends it. */
const unauthenticated = json({
  error: {
    code: 401,
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    status: 'UNAUTHENTICATED',
  },
}, 401);

const googleError = (code: number, status: string, message: string): Reply => json({ error: { code, message, status } }, code);

const modelPath = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:?]+):([A-Za-z]+)(\?.*)?$/;

/** Methods each publisher answers on Vertex. */
const methods: Readonly<Record<'google' | 'anthropic', readonly string[]>> = {
  google: ['generateContent', 'streamGenerateContent', 'countTokens', 'predict', 'predictLongRunning', 'fetchPredictOperation'],
  anthropic: ['rawPredict', 'streamRawPredict'],
};

/**
 * The checks Vertex makes before a model sees a call: a live bearer token, this project and
 * location's model path, a method the publisher answers, and the body each publisher requires
 * (Claude's `anthropic_version: vertex-2023-10-16`, and no `model` but on `count-tokens`). A
 * refused call gets Google's (or Claude's) own refusal.
 */
export function checkVertexCall(request: ReceivedRequest, checks: VertexCallChecks): { readonly call: VertexModelCall } | { readonly refusal: Reply } {
  const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
  if (bearer === undefined || !checks.tokens.isLive(bearer)) return { refusal: unauthenticated };
  const match = modelPath.exec(request.path);
  if (match === null) return { refusal: googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.') };
  const [, askedProject, askedLocation, publisher, model, method] = match as unknown as [string, string, string, 'google' | 'anthropic', string, string];
  if (askedProject !== checks.project) return { refusal: googleError(403, 'PERMISSION_DENIED', `Permission denied on resource project ${askedProject}.`) };
  if (askedLocation !== checks.location) return { refusal: googleError(400, 'FAILED_PRECONDITION', `Location ${askedLocation} is not supported for this project.`) };
  if (request.method !== 'POST' || !methods[publisher].includes(method)) return { refusal: googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.') };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(request.body) as Record<string, unknown>;
  } catch {
    return { refusal: googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.') };
  }
  if (publisher === 'anthropic') {
    if (body.anthropic_version !== 'vertex-2023-10-16') {
      return { refusal: json({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic_version: Input should be \'vertex-2023-10-16\'' } }, 400) };
    }
    if (model === 'count-tokens' ? typeof body.model !== 'string' : body.model !== undefined) {
      return { refusal: json({ type: 'error', error: { type: 'invalid_request_error', message: model === 'count-tokens' ? 'model: Field required' : 'model: Extra inputs are not permitted' } }, 400) };
    }
  }
  return { call: { request, publisher, model, method, body } };
}
