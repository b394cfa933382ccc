import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortScope } from '../../../call/abort-scope.js';
import { sendAuthorized } from '../../../upstream/send-authorized.js';
import type { IrRequest } from '../../../ir/index.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { clientCredentialsGrant, startFakeEntraAuthority, type FakeEntraAuthority } from '../../../../test/support/fake-entra-authority.js';
import { azureReply, json, startScriptedUpstream, type ScriptedUpstream } from '../../../../test/support/scripted-upstream/index.js';
import { createAzureAdapter } from './azure-adapter.js';
import { cognitiveServicesScope, createEntraAuthorization } from './entra-token.js';

let clock = Date.parse('2026-01-01T00:00:00Z');
const now = () => clock;
let authority: FakeEntraAuthority;
let upstream: ScriptedUpstream;

beforeAll(async () => {
  authority = await startFakeEntraAuthority({ tenantId: 'tenant-1', clientId: 'client-1', clientSecret: 'secret-1', expiresInSeconds: 3600, now });
  upstream = await startScriptedUpstream({ reply: azureReply({ acceptsBearer: (token) => authority.accepts(token) }, () => json({ ok: true })) });
});
afterAll(async () => {
  await upstream.close();
  await authority.close();
});

const target = (): UpstreamTarget => ({ providerName: 'azure', kind: 'azure', baseUrl: upstream.url, model: 'my-deployment', azure: { apiVersion: '2025-04-01-preview' } });

const irRequest: IrRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], params: {}, stream: false, extensions: {} };

/** One chat call through the adapter and the one authorization point every capability uses. */
async function call(adapter: ReturnType<typeof createAzureAdapter>): Promise<number> {
  const built = adapter.text.buildRequest(irRequest, target(), {});
  const response = await sendAuthorized(adapter, target(), { ...built, signal: new AbortScope(), timeoutMs: 5_000 });
  await response.body.text();
  return response.statusCode;
}

describe('Azure without a key: Microsoft Entra ID', () => {
  it('fetches a token on first use, holds it, and fetches a new one once the held one is near its expiry', async () => {
    const adapter = createAzureAdapter(createEntraAuthorization(async () => clientCredentialsGrant(authority.url, 'tenant-1', 'client-1', 'secret-1', now), now));
    expect(await call(adapter)).toBe(200);
    expect(await call(adapter)).toBe(200);
    expect(authority.grants).toHaveLength(1);
    expect(authority.grants[0]).toMatchObject({ grant_type: 'client_credentials', scope: cognitiveServicesScope });
    const first = upstream.requests.at(-1)?.headers.authorization;

    // 58 minutes on: the token is still valid for two, but is renewed before a call could outlive it.
    clock += 58 * 60_000;
    expect(await call(adapter)).toBe(200);
    expect(authority.grants).toHaveLength(2);
    expect(upstream.requests.at(-1)?.headers.authorization).not.toBe(first);

    // Past the first token's expiry the upstream refuses it, and the adapter no longer sends it.
    clock += 10 * 60_000;
    expect(authority.accepts(String(first).replace('Bearer ', ''))).toBe(false);
    expect(await call(adapter)).toBe(200);
  });

  it('asks for one token however many calls arrive at once', async () => {
    const grantsBefore = authority.grants.length;
    const adapter = createAzureAdapter(createEntraAuthorization(async () => clientCredentialsGrant(authority.url, 'tenant-1', 'client-1', 'secret-1', now), now));
    expect(await Promise.all([call(adapter), call(adapter), call(adapter)])).toEqual([200, 200, 200]);
    expect(authority.grants.length - grantsBefore).toBe(1);
  });

  it('fails the call without sending it when no token can be had, and tries again on the next call', async () => {
    const sentBefore = upstream.requests.length;
    const adapter = createAzureAdapter(createEntraAuthorization(async () => clientCredentialsGrant(authority.url, 'tenant-1', 'client-1', 'wrong-secret', now), now));
    await expect(call(adapter)).rejects.toMatchObject({ code: 'upstream_error', message: expect.stringContaining('Entra ID') });
    await expect(call(adapter)).rejects.toMatchObject({ code: 'upstream_error' });
    expect(upstream.requests.length).toBe(sentBefore);
  });

  it('sends the api-key and fetches no token when a key is configured', async () => {
    let loaded = false;
    const adapter = createAzureAdapter(
      createEntraAuthorization(async () => {
        loaded = true;
        return clientCredentialsGrant(authority.url, 'tenant-1', 'client-1', 'secret-1', now);
      }, now),
    );
    const keyed = { ...target(), apiKey: 'k' };
    expect(adapter.authorize?.({ method: 'POST', url: '', headers: {}, body: '' }, keyed)).toEqual({});
    expect(adapter.upstreamHeaders(keyed, {})).toMatchObject({ 'api-key': 'k' });
    expect(loaded).toBe(false);
  });
});
