import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortScope } from '../call/abort-scope.js';
import type { CallToAuthorize, ProviderAdapter, UpstreamTarget } from '../providers/provider-adapter.js';
import { adapterForKind } from '../providers/registry.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../../test/support/scripted-upstream/index.js';
import { sendAuthorized } from './send-authorized.js';

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: { body: '{"ok":true}' } });
});
afterAll(() => upstream.close());

const target = (): UpstreamTarget => ({ providerName: 'cloud', kind: 'azure', baseUrl: upstream.url, model: 'm' });

const send = (adapter: Pick<ProviderAdapter, 'authorize'>, body: string) =>
  sendAuthorized(adapter, target(), {
    url: `${upstream.url}/models/m:invoke?x=1`,
    headers: { 'content-type': 'application/json', 'x-operator': 'kept' },
    body,
    signal: new AbortScope(),
    timeoutMs: 5_000,
  }).then((response) => response.body.text());

describe('an adapter with an authorization step', () => {
  it('signs the final call asynchronously, and its headers reach the upstream with the call unchanged', async () => {
    const seen: CallToAuthorize[] = [];
    const adapter = {
      async authorize(call: CallToAuthorize) {
        seen.push(call);
        await new Promise((resolve) => setTimeout(resolve, 5));
        // A signature over exactly what is sent: method, URL and body.
        return { authorization: `Sig ${call.method} ${new URL(call.url).pathname} ${String(call.body).length}`, 'x-amz-date': '20250101T000000Z' };
      },
    };
    await send(adapter, '{"prompt":"hi"}');
    expect(seen).toEqual([{ method: 'POST', url: `${upstream.url}/models/m:invoke?x=1`, headers: { 'content-type': 'application/json', 'x-operator': 'kept' }, body: '{"prompt":"hi"}' }]);
    const received = upstream.requests.at(-1);
    expect(received?.headers.authorization).toBe('Sig POST /models/m:invoke 15');
    expect(received?.headers['x-amz-date']).toBe('20250101T000000Z');
    expect(received?.headers['x-operator']).toBe('kept');
    expect(received?.body).toBe('{"prompt":"hi"}');
  });

  it('adds a held credential without waiting for it', async () => {
    const adapter = { authorize: () => ({ authorization: 'Bearer held' }) };
    await send(adapter, '{}');
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer held');
  });

  it('sends nothing upstream when the authorization fails', async () => {
    const before = upstream.requests.length;
    const adapter = { authorize: () => Promise.reject(new Error('no token')) };
    await expect(send(adapter, '{}')).rejects.toThrow('no token');
    expect(upstream.requests.length).toBe(before);
  });
});

describe('the kinds that authorize in their headers', () => {
  it.each(['openai', 'openai-compatible', 'anthropic', 'gemini'] as const)('%s has no authorization step, so its calls go as built', async (kind) => {
    expect(adapterForKind(kind).authorize).toBeUndefined();
    await send(adapterForKind(kind), '{"same":1}');
    const received = upstream.requests.at(-1);
    expect(received?.headers.authorization).toBeUndefined();
    expect(received?.headers['x-operator']).toBe('kept');
  });
});
