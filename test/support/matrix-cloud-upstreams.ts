import { loadEventStreamModules } from '../../src/providers/bedrock/event-stream-reader.js';
import { fakeBedrockSecret } from './fake-bedrock/fake-bedrock.js';
import { startFakeTokenEndpoint, type FakeTokenEndpoint } from './fake-vertex-token-endpoint.js';
import type { UpstreamKind } from './matrix-recordings.js';
import { anthropicStreamAsEventStream, bedrockReply, vertexReply, type Reply, type ReplyScript } from './scripted-upstream/index.js';
import { createTestServiceAccount } from './test-service-account.js';

/** One matrix row's provider, the upstream model its route names, and how a scripted reply reaches the gateway. */
export interface MatrixUpstreamSetup {
  readonly provider: Record<string, unknown>;
  readonly model: string;
  /** The reply as this upstream gives it: checked as the service checks calls, in its own framing. */
  readonly answer: (reply: Reply) => ReplyScript;
}

const region = 'us-east-1';
const project = 'matrix-project';
const location = 'us-east5';

/**
 * The cloud platforms' side of the matrix: Bedrock's signing secret and region, and a Vertex
 * project whose service account's key file names a fake token endpoint, whose tokens alone
 * Vertex's checks accept.
 */
export interface CloudUpstreams {
  setupFor(kind: UpstreamKind, upstreamUrl: string): MatrixUpstreamSetup;
  close(): Promise<void>;
}

export async function startCloudUpstreams(): Promise<CloudUpstreams> {
  const tokens: FakeTokenEndpoint = await startFakeTokenEndpoint();
  const account = createTestServiceAccount(tokens.tokenUri, project);
  tokens.trust(account.clientEmail, account.publicKey);
  // The decoders of the expectations read Bedrock's frames with the gateway's own reader, which
  // the gateway loads on its first Bedrock call; loading it here keeps them independent of order.
  await loadEventStreamModules();
  const bedrock = (baseUrl: string) => ({
    type: 'bedrock',
    region,
    access_key_id: fakeBedrockSecret.accessKeyId,
    secret_access_key: fakeBedrockSecret.secretAccessKey,
    base_url: baseUrl,
  });
  const vertex = (baseUrl: string) => ({ type: 'vertex', project, location, credentials_file: account.keyFile, base_url: baseUrl });
  const bedrockChecks = { region, secret: fakeBedrockSecret };
  const vertexChecks = { tokens, project, location };
  return {
    setupFor(kind, upstreamUrl) {
      switch (kind) {
        case 'bedrock-anthropic':
          return {
            provider: bedrock(upstreamUrl),
            model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
            answer: (reply) => bedrockReply(bedrockChecks, () => anthropicStreamAsEventStream(reply)),
          };
        case 'bedrock-converse':
          return { provider: bedrock(upstreamUrl), model: 'amazon.nova-pro-v1:0', answer: (reply) => bedrockReply(bedrockChecks, () => reply) };
        case 'vertex-gemini':
          return { provider: vertex(upstreamUrl), model: 'gemini-2.5-flash', answer: (reply) => vertexReply(vertexChecks, () => reply) };
        case 'vertex-anthropic':
          return { provider: vertex(upstreamUrl), model: 'claude-sonnet-4-5@20250929', answer: (reply) => vertexReply(vertexChecks, () => reply) };
        default: {
          const openAiType = kind === 'openai' || kind === 'openai-compatible';
          // Azure on its v1 API: OpenAI's paths below /openai/v1, which the simulator also serves.
          const baseUrl = kind === 'azure' ? `${upstreamUrl}/openai/v1` : openAiType ? `${upstreamUrl}/v1` : upstreamUrl;
          return { provider: { type: kind, base_url: baseUrl, api_key: `upstream-secret-${kind}` }, model: `upstream-${kind}`, answer: (reply) => reply };
        }
      }
    },
    close: () => tokens.close(),
  };
}
