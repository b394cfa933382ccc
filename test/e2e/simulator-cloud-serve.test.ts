import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

/**
 * A `switchyard serve` process (the bundled command) whose bedrock and vertex providers are on
 * `builtin:sim`, with no cloud credential anywhere in its environment: the simulator's cloud
 * chunk and the event-stream codec it loads on first use work from the bundle. Needs `npm run build`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

let workDirectory: string;
let gateway: SpawnedGateway;

beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-sim-cloud-'));
  const file = path.join(workDirectory, 'config.yaml');
  writeFileSync(file, [
    'database: { url: "sqlite::memory:" }',
    'providers:',
    '  bedrock: { type: bedrock, base_url: "builtin:sim", region: us-east-1 }',
    '  vertex: { type: vertex, base_url: "builtin:sim", project: sim-project, location: global }',
    'models:',
    '  - { id: claude-bedrock, routes: [{ provider: bedrock, model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0" }], price: { input_per_mtok: "1", output_per_mtok: "2" } }',
    '  - { id: nova-bedrock, routes: [{ provider: bedrock, model: "amazon.nova-pro-v1:0" }], price: { input_per_mtok: "1", output_per_mtok: "2" } }',
    '  - { id: gemini-vertex, routes: [{ provider: vertex, model: gemini-2.5-flash }], price: { input_per_mtok: "1", output_per_mtok: "2" } }',
    '  - { id: claude-vertex, routes: [{ provider: vertex, model: "claude-sonnet-4-5@20250929" }], price: { input_per_mtok: "1", output_per_mtok: "2" } }',
    '',
  ].join('\n'));
  const environment = zeroConfigEnvironment({ HOME: workDirectory });
  // Nothing for the AWS chain or Google's Application Default Credentials to find.
  for (const name of Object.keys(environment)) if (/^(AWS_|GOOGLE_|GCLOUD|CLOUDSDK_)/.test(name)) delete environment[name];
  gateway = await spawnGateway(process.execPath, [bin, 'serve', '--config', file, '--port', '0'], { cwd: workDirectory, env: environment, urlPattern: /"url":"(http:\/\/[^"]+)"/ });
});

afterAll(async () => {
  await gateway?.stop();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('a served gateway with cloud providers on the built-in simulator', () => {
  it.each(['claude-bedrock', 'nova-bedrock', 'gemini-vertex', 'claude-vertex'])('streams %s to a chat client and answers a Messages client', async (model) => {
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'open-access', maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello cloud' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: hello cloud');
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'open-access', maxRetries: 0 });
    const message = await anthropic.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hello cloud' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: hello cloud' }]);
  });
});
