import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

/**
 * A client that goes away while its call is between attempts (its first attempt failed in a way
 * worth retrying): the gateway stops there, tries no more upstreams, and records no failure of
 * its own (it used to fail with a 500 on the way out of the retry wait).
 */

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let secret: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  // Slow, then failing: the client leaves while the first attempt is still running.
  upstream.reply({ status: 500, delayMs: 400, body: '{"error":{"message":"boom","type":"server_error"}}' });
  gateway = await startTestGateway({
    routing: { attempts_per_route: 3, backoff_ms: 200 },
    providers: { flaky: { type: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'k' } },
    models: [{ id: 'flaky', routes: [{ provider: 'flaky', model: 'm' }] }],
  });
  secret = (await insertKey(gateway.services.storage, 'client', false)).secret;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('a client leaving before a retry', () => {
  it('stops the call without an internal error and tries no further attempt', async () => {
    const controller = new AbortController();
    const call = fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'flaky', messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    // Leaves once the first attempt has reached the upstream (which answers 400 ms later), however
    // slowly a busy machine got the call there.
    const deadline = Date.now() + 5_000;
    while (upstream.requests.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await call;
    const entry = await waitForLedgerEntry(gateway, 1);
    expect(entry.status).not.toBe(500);
    expect(entry.costNanoUsd).toBe(0n);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(upstream.requests).toHaveLength(1);
    expect(gateway.logs()).not.toContain('internal_error');
    expect(gateway.logs()).not.toContain('before initialization');
  });
});
