import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultClaudeText } from '../support/fake-bedrock/default-answers.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

/**
 * A `switchyard serve` process with a Bedrock provider that names only its region: its calls are
 * signed with the credentials the AWS SDK's default chain finds (here temporary keys in the
 * environment, as a role or SSO session hands them out), loaded from the built bundle on the
 * first call. The fake Bedrock takes only calls signed with those keys and that session token.
 * Needs `npm run build`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');
const environmentKeys = { accessKeyId: 'ASIAENVIRONMENTKEY01', secretAccessKey: 'environment/secret+key/0000000000000000', sessionToken: 'session-token-from-the-environment' };

let bedrock: FakeBedrock;
let gateway: SpawnedGateway;
let workDirectory: string;

beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-bedrock-'));
  bedrock = await startFakeBedrock({ region: 'eu-west-3', secret: environmentKeys });
  const file = path.join(workDirectory, 'switchyard.yaml');
  writeFileSync(
    file,
    [
      'database: { url: "sqlite::memory:" }',
      'providers:',
      `  bedrock: { type: bedrock, region: eu-west-3, base_url: "${bedrock.url}" }`,
      'models:',
      '  - id: claude-on-bedrock',
      '    routes: [{ provider: bedrock, model: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0" }]',
      '    price: { input_per_mtok: "3.00", output_per_mtok: "15.00" }',
      '',
    ].join('\n'),
  );
  gateway = await spawnGateway(process.execPath, [bin, 'serve', '--config', file, '--port', '0'], {
    cwd: workDirectory,
    env: zeroConfigEnvironment({
      AWS_ACCESS_KEY_ID: environmentKeys.accessKeyId,
      AWS_SECRET_ACCESS_KEY: environmentKeys.secretAccessKey,
      AWS_SESSION_TOKEN: environmentKeys.sessionToken,
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_SHARED_CREDENTIALS_FILE: path.join(workDirectory, 'no-credentials'),
      AWS_CONFIG_FILE: path.join(workDirectory, 'no-config'),
    }),
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await bedrock?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('a served gateway with a Bedrock provider that names only its region', () => {
  it("signs with the default chain's temporary credentials, answered and streamed", async () => {
    const client = new Anthropic({ baseURL: gateway.url, apiKey: 'client-key', maxRetries: 0 });
    const question = [{ role: 'user' as const, content: 'hi' }];
    const message = await client.messages.create({ model: 'claude-on-bedrock', max_tokens: 16, messages: question });
    expect(message.content).toEqual([{ type: 'text', text: defaultClaudeText }]);
    const streamed = await client.messages.stream({ model: 'claude-on-bedrock', max_tokens: 16, messages: question }).finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: defaultClaudeText }]);
    expect(bedrock.refused).toEqual([]);
    expect(bedrock.requests.map((request) => request.operation)).toEqual(['invoke', 'invoke-with-response-stream']);
    for (const request of bedrock.requests) {
      expect(request.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIAENVIRONMENTKEY01\/\d{8}\/eu-west-3\/bedrock\/aws4_request/);
      expect(request.headers['x-amz-security-token']).toBe(environmentKeys.sessionToken);
    }
    expect(gateway.stdout()).not.toContain(environmentKeys.secretAccessKey);
  });
});
