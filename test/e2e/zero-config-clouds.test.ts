import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultClaudeText } from '../support/fake-bedrock/default-answers.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { readFixture } from '../support/fixtures.js';
import { azureReply, json, startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

/**
 * `switchyard serve` with no config file, in an environment naming an AWS region and keys, a Google
 * Cloud project and a service account key file, and an Azure OpenAI endpoint and key: it finds each
 * cloud, and every starter model it offers answers a call, through the fakes the clouds' own endpoint
 * variables point at (the fake Bedrock checks each SigV4 signature, the fake Vertex each bearer
 * against its token endpoint, the fake Azure the key). Needs `npm run build`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');
const azureKey = 'azure-resource-key';
const bedrockProfile = 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0';

let bedrock: FakeBedrock;
let vertex: FakeVertex;
let azure: ScriptedUpstream;
let gateway: SpawnedGateway;
let workDirectory: string;
let openai: OpenAI;
let anthropic: Anthropic;

const azureAnswer = json({
  id: 'chatcmpl-azure',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4.1-mini',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello from Azure.' } }],
  usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
});

beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-zero-config-'));
  bedrock = await startFakeBedrock({ region: 'eu-west-1' });
  // Vertex's `global` location: the default when neither GOOGLE_CLOUD_LOCATION nor CLOUD_ML_REGION is set.
  vertex = await startFakeVertex({ project: 'zero-config-project', location: 'global' });
  vertex.answer((call) => ({ body: readFixture(call.publisher === 'anthropic' ? 'anthropic/messages/anthropic-text.json' : 'google/generate-content/google-text.json') }));
  azure = await startScriptedUpstream({ reply: azureReply({ apiKey: azureKey }, () => azureAnswer) });
  gateway = await spawnGateway(process.execPath, [bin, 'serve', '--port', '0'], {
    cwd: workDirectory,
    env: zeroConfigEnvironment({
      HOME: workDirectory,
      DATABASE_URL: 'sqlite::memory:',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: bedrock.secret.accessKeyId,
      AWS_SECRET_ACCESS_KEY: bedrock.secret.secretAccessKey,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.url,
      AWS_EC2_METADATA_DISABLED: 'true',
      GOOGLE_CLOUD_PROJECT: vertex.project,
      GOOGLE_APPLICATION_CREDENTIALS: vertex.account.keyFile,
      // As Claude Code and Anthropic's Vertex SDK take it: with the API version.
      ANTHROPIC_VERTEX_BASE_URL: `${vertex.url}/v1`,
      AZURE_OPENAI_ENDPOINT: `${azure.url}/`,
      AZURE_OPENAI_API_KEY: azureKey,
    }),
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'open-access', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'open-access', maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await bedrock?.close();
  await vertex?.close();
  await azure?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

const question = [{ role: 'user' as const, content: 'hi' }];

describe('a start without a config file in an environment naming AWS, Google Cloud and Azure credentials', () => {
  it('lists each cloud starter model under its own id beside the well-known ids', async () => {
    const ids = (await openai.models.list()).data.map((model) => model.id);
    expect(ids.filter((id) => !id.startsWith('sim-'))).toEqual([
      'claude-sonnet-4-5',
      'gemini-2.5-flash',
      'bedrock/claude-sonnet-4-5',
      'vertex/gemini-2.5-flash',
      'vertex/claude-sonnet-4-5',
      'azure/gpt-4.1-mini',
    ]);
  });

  it("answers Claude on Bedrock through the region's cross-region profile, signed with the environment's keys", async () => {
    const message = await anthropic.messages.create({ model: 'bedrock/claude-sonnet-4-5', max_tokens: 16, messages: question });
    expect(message.content).toEqual([{ type: 'text', text: defaultClaudeText }]);
    // The well-known id routes to the first cloud that serves Claude, here Bedrock.
    const wellKnown = await openai.chat.completions.create({ model: 'claude-sonnet-4-5-20250929', messages: question });
    expect(wellKnown.choices[0]?.message.content).toBe(defaultClaudeText);
    expect(bedrock.refused).toEqual([]);
    expect(bedrock.requests.map((request) => request.modelId)).toEqual([bedrockProfile, bedrockProfile]);
    for (const request of bedrock.requests) expect(request.headers.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${bedrock.secret.accessKeyId}/\\d{8}/eu-west-1/bedrock/`));
  });

  it("answers Gemini and Claude on Vertex AI at the project's global location, with a token from the key file's endpoint", async () => {
    const gemini = await openai.chat.completions.create({ model: 'vertex/gemini-2.5-flash', messages: question });
    expect(gemini.choices[0]?.message.content).toContain('strawberry');
    const claude = await anthropic.messages.create({ model: 'vertex/claude-sonnet-4-5', max_tokens: 16, messages: question });
    expect(claude.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining("I'm doing well") });
    const wellKnown = await openai.chat.completions.create({ model: 'gemini-2.5-flash', messages: question });
    expect(wellKnown.choices[0]?.message.content).toContain('strawberry');
    expect(vertex.accepted.map((call) => `${call.publisher}/${call.model}:${call.method}`)).toEqual([
      'google/gemini-2.5-flash:generateContent',
      'anthropic/claude-sonnet-4-5@20250929:rawPredict',
      'google/gemini-2.5-flash:generateContent',
    ]);
    expect(vertex.accepted[0]?.request.path).toMatch(/^\/v1\/projects\/zero-config-project\/locations\/global\//);
    expect(vertex.tokens.issued).toHaveLength(1);
  });

  it('answers the Azure deployment on the v1 API with the resource key', async () => {
    const completion = await openai.chat.completions.create({ model: 'azure/gpt-4.1-mini', messages: question });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure.');
    expect(azure.requests.map((request) => [request.path, request.answer.status, JSON.parse(request.body).model])).toEqual([['/openai/v1/chat/completions', 200, 'gpt-4.1-mini']]);
    expect(gateway.stdout()).not.toContain(azureKey);
    expect(gateway.stdout()).not.toContain(bedrock.secret.secretAccessKey);
  });
});
