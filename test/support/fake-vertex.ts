import { startFakeTokenEndpoint, type FakeTokenEndpoint } from './fake-vertex-token-endpoint.js';
import { json, startScriptedUpstream, type Reply, type ReceivedRequest, type ScriptedUpstream } from './scripted-upstream/index.js';
import { createTestServiceAccount, type TestServiceAccount } from './test-service-account.js';

/** A model call that got past the fake's checks: whose model, and which method. */
export interface VertexModelCall {
  readonly request: ReceivedRequest;
  readonly publisher: 'google' | 'anthropic';
  readonly model: string;
  /** `generateContent`, `streamGenerateContent`, `rawPredict`, `streamRawPredict`, `predict`, … */
  readonly method: string;
  readonly body: Record<string, unknown>;
}

export interface FakeVertex {
  /** The `base_url` a `type: vertex` provider is configured with. */
  readonly url: string;
  readonly project: string;
  readonly location: string;
  /** The service account whose key file the gateway is given. */
  readonly account: TestServiceAccount;
  readonly tokens: FakeTokenEndpoint;
  /** Every request Vertex received, refused ones included. */
  readonly upstream: ScriptedUpstream;
  /** What a model call that passed the checks is answered. */
  answer(script: (call: VertexModelCall) => Reply): void;
  /** Model calls that passed the checks, in order. */
  readonly accepted: VertexModelCall[];
  close(): Promise<void>;
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
 * Vertex AI as the gateway meets it: a token endpoint that issues short-lived tokens for a
 * JWT-bearer grant signed by the test service account, and Vertex itself, which answers only a
 * call bearing a live token from it, on this project and location's model path, with the body
 * each publisher requires (Claude's `anthropic_version: vertex-2023-10-16`).
 */
export async function startFakeVertex(options: { readonly project?: string; readonly location?: string; readonly tokenLifetimeSeconds?: number } = {}): Promise<FakeVertex> {
  const project = options.project ?? 'test-project';
  const location = options.location ?? 'us-east5';
  const tokens = await startFakeTokenEndpoint(options.tokenLifetimeSeconds === undefined ? {} : { lifetimeSeconds: options.tokenLifetimeSeconds });
  const account = createTestServiceAccount(tokens.tokenUri, project);
  tokens.trust(account.clientEmail, account.publicKey);
  const accepted: VertexModelCall[] = [];
  let script: (call: VertexModelCall) => Reply = () => googleError(500, 'INTERNAL', 'No answer scripted.');

  function check(request: ReceivedRequest): Reply {
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (bearer === undefined || !tokens.isLive(bearer)) return unauthenticated;
    const match = modelPath.exec(request.path);
    if (match === null) return googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.');
    const [, askedProject, askedLocation, publisher, model, method] = match as unknown as [string, string, string, 'google' | 'anthropic', string, string];
    if (askedProject !== project) return googleError(403, 'PERMISSION_DENIED', `Permission denied on resource project ${askedProject}.`);
    if (askedLocation !== location) return googleError(400, 'FAILED_PRECONDITION', `Location ${askedLocation} is not supported for this project.`);
    if (request.method !== 'POST' || !methods[publisher].includes(method)) return googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    if (publisher === 'anthropic') {
      if (body.anthropic_version !== 'vertex-2023-10-16') {
        return json({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic_version: Input should be \'vertex-2023-10-16\'' } }, 400);
      }
      if (model === 'count-tokens' ? typeof body.model !== 'string' : body.model !== undefined) {
        return json({ type: 'error', error: { type: 'invalid_request_error', message: model === 'count-tokens' ? 'model: Field required' : 'model: Extra inputs are not permitted' } }, 400);
      }
    }
    const call: VertexModelCall = { request, publisher, model, method, body };
    accepted.push(call);
    return script(call);
  }

  const upstream = await startScriptedUpstream({ reply: check });
  return {
    url: upstream.url,
    project,
    location,
    account,
    tokens,
    upstream,
    answer: (next) => void (script = next),
    accepted,
    close: async () => {
      await upstream.close();
      await tokens.close();
    },
  };
}
