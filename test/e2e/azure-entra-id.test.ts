import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../support/fixtures.js';
import { startFakeEntraAuthority, type FakeEntraAuthority } from '../support/fake-entra-authority.js';
import { azureReply, json, startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

/**
 * A `switchyard serve` process with an Azure provider without a key: its bearer tokens come from
 * `@azure/identity`'s DefaultAzureCredential itself (a service principal in the `AZURE_*`
 * environment), pointed with `AZURE_AUTHORITY_HOST` at a fake authority over HTTPS that issues
 * client-credential tokens with an expiry. The fake Azure resource takes only tokens the authority
 * issued and that have not expired. Needs `npm run build`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

let authority: FakeEntraAuthority;
let upstream: ScriptedUpstream;
let gateway: SpawnedGateway;
let workDirectory: string;

beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-entra-'));
  authority = await startFakeEntraAuthority({
    tenantId: 'adfs',
    clientId: 'gateway-client',
    clientSecret: 'gateway-secret',
    // Five minutes and five seconds: held for five seconds, then renewed (five minutes before expiry).
    expiresInSeconds: 305,
    tls: { key: readFileSync(fixturePath('tls/localhost-key.pem')), cert: readFileSync(fixturePath('tls/localhost-cert.pem')) },
  });
  upstream = await startScriptedUpstream({
    reply: azureReply({ acceptsBearer: (token) => authority.accepts(token) }, () =>
      json({ id: 'chatcmpl-entra', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'signed in' } }], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } }),
    ),
  });
  const file = path.join(workDirectory, 'switchyard.yaml');
  writeFileSync(
    file,
    [
      'database: { url: "sqlite::memory:" }',
      'providers:',
      `  azure: { type: azure, base_url: "${upstream.url}", api_version: "2025-04-01-preview" }`,
      'models:',
      '  - id: gpt-entra',
      '    routes: [{ provider: azure, model: my-deployment }]',
      '    price: { input_per_mtok: "1.00", output_per_mtok: "2.00" }',
      '',
    ].join('\n'),
  );
  gateway = await spawnGateway(process.execPath, [bin, 'serve', '--config', file, '--port', '0'], {
    cwd: workDirectory,
    env: zeroConfigEnvironment({
      AZURE_AUTHORITY_HOST: authority.url,
      AZURE_TENANT_ID: 'adfs',
      AZURE_CLIENT_ID: 'gateway-client',
      AZURE_CLIENT_SECRET: 'gateway-secret',
      NODE_EXTRA_CA_CERTS: fixturePath('tls/localhost-cert.pem'),
    }),
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await upstream?.close();
  await authority?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

const ask = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'client-key', maxRetries: 0 }).chat.completions.create({ model: 'gpt-entra', messages: [{ role: 'user', content: 'hi' }] });
const bearerSent = () => String(upstream.requests.at(-1)?.headers.authorization);

describe('an Azure provider without a key', () => {
  it('calls with a Microsoft Entra ID token from DefaultAzureCredential, fetched once and held', async () => {
    expect((await ask()).choices[0]?.message.content).toBe('signed in');
    expect((await ask()).choices[0]?.message.content).toBe('signed in');
    expect(authority.grants.map((grant) => ({ grant_type: grant.grant_type, client_id: grant.client_id, scope: grant.scope }))).toEqual([
      { grant_type: 'client_credentials', client_id: 'gateway-client', scope: 'https://cognitiveservices.azure.com/.default' },
    ]);
    expect(bearerSent()).toMatch(/^Bearer entra-/);
    expect(upstream.requests.at(-1)?.headers['api-key']).toBeUndefined();
    // The token is never written to the log.
    expect(gateway.stdout()).not.toContain(bearerSent().slice('Bearer '.length));
  });

  it('fetches a new token once the held one is within five minutes of its expiry', async () => {
    const held = bearerSent();
    // MSAL counts expiry in whole seconds, rounded, so it can see up to a second less of the wait.
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect((await ask()).choices[0]?.message.content).toBe('signed in');
    expect(authority.grants).toHaveLength(2);
    expect(bearerSent()).toMatch(/^Bearer entra-/);
    expect(bearerSent()).not.toBe(held);
  });
});
