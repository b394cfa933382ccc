import { startFakeTokenEndpoint, type FakeTokenEndpoint } from './fake-vertex-token-endpoint.js';
import { json, startScriptedUpstream, type Reply, type ReceivedRequest, type ScriptedUpstream } from './scripted-upstream/index.js';
import { createTestServiceAccount, type TestServiceAccount } from './test-service-account.js';
import { checkVertexCall, type VertexModelCall } from './vertex-call-checks.js';

export type { VertexModelCall } from './vertex-call-checks.js';

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
  let script: (call: VertexModelCall) => Reply = () => json({ error: { code: 500, message: 'No answer scripted.', status: 'INTERNAL' } }, 500);

  function check(request: ReceivedRequest): Reply {
    const verdict = checkVertexCall(request, { tokens, project, location });
    if ('refusal' in verdict) return verdict.refusal;
    accepted.push(verdict.call);
    return script(verdict.call);
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
