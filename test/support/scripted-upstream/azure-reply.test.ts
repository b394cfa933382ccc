import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsGrant, startFakeEntraAuthority, type FakeEntraAuthority } from '../fake-entra-authority.js';
import { azureReply, json, startScriptedUpstream, type AzureOperation, type ScriptedUpstream } from './index.js';

/**
 * The fake Azure resource is driven by the `openai` package's own AzureOpenAI client: if the fake
 * took paths, versions or credentials the service does not, these calls would show it.
 */
let upstream: ScriptedUpstream;
let authority: FakeEntraAuthority;
const operations: AzureOperation[] = [];
const completion = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi' } }] };

beforeAll(async () => {
  authority = await startFakeEntraAuthority({ tenantId: 'tenant-1', clientId: 'client-1', clientSecret: 'secret-1', expiresInSeconds: 3600 });
  upstream = await startScriptedUpstream({
    reply: azureReply({ apiKey: 'azure-key', acceptsBearer: (token) => authority.accepts(token) }, (operation) => {
      operations.push(operation);
      return json(completion);
    }),
  });
});
afterAll(async () => {
  await upstream.close();
  await authority.close();
});

describe('the fake Azure OpenAI resource, driven by the AzureOpenAI client', () => {
  it('answers the classic deployment path with the API version and the api-key header', async () => {
    const client = new AzureOpenAI({ endpoint: upstream.url, apiKey: 'azure-key', apiVersion: '2024-10-21', deployment: 'my-gpt', maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'ignored', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message.content).toBe('hi');
    expect(operations.at(-1)).toEqual({ form: 'classic', operation: 'chat/completions', deployment: 'my-gpt', apiVersion: '2024-10-21' });
    expect(upstream.requests.at(-1)?.headers['api-key']).toBe('azure-key');
  });

  it('answers with an Entra ID token from the token endpoint, and refuses a token it did not issue', async () => {
    const credential = clientCredentialsGrant(authority.url, 'tenant-1', 'client-1', 'secret-1');
    const withToken = new AzureOpenAI({
      endpoint: upstream.url,
      apiVersion: '2024-10-21',
      deployment: 'my-gpt',
      maxRetries: 0,
      azureADTokenProvider: async () => (await credential.getToken('https://cognitiveservices.azure.com/.default')).token,
    });
    await expect(withToken.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(authority.grants.at(-1)).toMatchObject({ grant_type: 'client_credentials', scope: 'https://cognitiveservices.azure.com/.default' });
    const forged = new AzureOpenAI({ endpoint: upstream.url, apiVersion: '2024-10-21', deployment: 'my-gpt', maxRetries: 0, azureADTokenProvider: async () => 'forged' });
    await expect(forged.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a wrong key with Azure’s 401', async () => {
    const client = new AzureOpenAI({ endpoint: upstream.url, apiKey: 'wrong', apiVersion: '2024-10-21', deployment: 'my-gpt', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401 });
  });

  it('does not find a classic path without api-version', async () => {
    const response = await fetch(`${upstream.url}/openai/deployments/my-gpt/chat/completions`, { method: 'POST', headers: { 'api-key': 'azure-key', 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
  });

  it('serves the v1 API to the plain OpenAI client, with the model in the body', async () => {
    const client = new OpenAI({ baseURL: `${upstream.url}/openai/v1`, apiKey: 'azure-key', maxRetries: 0 });
    await client.chat.completions.create({ model: 'my-gpt', messages: [{ role: 'user', content: 'hi' }] });
    expect(operations.at(-1)).toEqual({ form: 'v1', operation: 'chat/completions', deployment: undefined, apiVersion: undefined });
  });

  it('routes Responses on the classic form to the resource’s own Responses path', async () => {
    const client = new AzureOpenAI({ endpoint: upstream.url, apiKey: 'azure-key', apiVersion: '2025-04-01-preview', maxRetries: 0 });
    await client.responses.create({ model: 'my-gpt', input: 'hi' }).catch(() => undefined);
    expect(operations.at(-1)).toEqual({ form: 'classic', operation: 'responses', deployment: undefined, apiVersion: '2025-04-01-preview' });
  });
});
