import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../support/fixtures.js';
import { startFakeGceMetadata } from '../support/fake-gce-metadata.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import type { ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

/**
 * `switchyard serve` processes (the bundled command) with Vertex providers: one given a service
 * account key file, one with none, whose Application Default Credentials `google-auth-library`
 * finds on a (fake) Compute Engine metadata server. Needs `npm run build`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');
const project = 'switchyard-test';
const location = 'us-east5';

let vertex: FakeVertex;
let metadata: ScriptedUpstream;
let workDirectory: string;
const gateways: SpawnedGateway[] = [];

beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-vertex-'));
  vertex = await startFakeVertex({ project, location });
  metadata = await startFakeGceMetadata(vertex.tokens, project);
  vertex.answer(() => ({ body: readFixture('google/generate-content/google-text.json') }));
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await metadata?.close();
  await vertex?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

async function serve(name: string, provider: string, environment: Record<string, string> = {}): Promise<SpawnedGateway> {
  const file = path.join(workDirectory, `${name}.yaml`);
  writeFileSync(file, [
    'database: { url: "sqlite::memory:" }',
    'providers:',
    `  vertex: ${provider}`,
    'models:',
    '  - id: vertex-gemini',
    '    routes: [{ provider: vertex, model: gemini-2.5-flash }]',
    '    price: { input_per_mtok: "0.30", output_per_mtok: "2.50" }',
    '',
  ].join('\n'));
  const environmentWithoutCredentials = zeroConfigEnvironment({ HOME: workDirectory, ...environment });
  delete environmentWithoutCredentials.GOOGLE_APPLICATION_CREDENTIALS;
  const gateway = await spawnGateway(process.execPath, [bin, 'serve', '--config', file, '--port', '0'], {
    cwd: workDirectory,
    env: environmentWithoutCredentials,
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
  gateways.push(gateway);
  return gateway;
}

const ask = (gateway: SpawnedGateway) =>
  new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'open-access', maxRetries: 0 }).chat.completions.create({ model: 'vertex-gemini', messages: [{ role: 'user', content: 'hi' }] });

describe('a served gateway with a Vertex provider', () => {
  it('calls Gemini with a token for the service account of its key file', async () => {
    const gateway = await serve('key-file', `{ type: vertex, project: ${project}, location: ${location}, credentials_file: "${vertex.account.keyFile}", base_url: "${vertex.url}" }`);
    const before = vertex.tokens.upstream.calls();

    expect((await ask(gateway)).choices[0]?.message.content).toContain('strawberry');
    expect(vertex.tokens.upstream.calls()).toBe(before + 1);
    expect(vertex.accepted.at(-1)?.request.path).toBe(`/v1/projects/${project}/locations/${location}/publishers/google/models/gemini-2.5-flash:generateContent`);
  });

  it('calls Gemini with Application Default Credentials from the machine\'s metadata server', async () => {
    const gateway = await serve('adc', `{ type: vertex, project: ${project}, location: ${location}, base_url: "${vertex.url}" }`, {
      GCE_METADATA_HOST: new URL(metadata.url).host,
      METADATA_SERVER_DETECTION: 'ping-only',
    });

    expect((await ask(gateway)).choices[0]?.message.content).toContain('strawberry');
    const tokenRequests = metadata.requests.filter((request) => request.path.startsWith('/computeMetadata/v1/instance/service-accounts/default/token'));
    expect(tokenRequests).toHaveLength(1);
    expect(decodeURIComponent(tokenRequests[0]!.path)).toContain('https://www.googleapis.com/auth/cloud-platform');
    expect(String(vertex.accepted.at(-1)?.request.headers.authorization)).toBe(`Bearer ${vertex.tokens.issued.at(-1)}`);

    await ask(gateway);
    expect(metadata.requests.filter((request) => request.path.startsWith('/computeMetadata/v1/instance/service-accounts/default/token'))).toHaveLength(1);
  });
});
