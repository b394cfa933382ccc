import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { fixtureChunks, sseFromChunks } from '../support/fixtures.js';
import { caseClosedEarlyAt, pacedStreams, startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * A client that leaves a stream has its upstream read on for the usage, for up to
 * `usage_wait_after_disconnect_ms`. That client is gone, so its call no longer holds a
 * connection the shutdown waits for: a shutdown cuts the wait short instead, charges what was
 * delivered, and does not sit out the wait (nor lose the entry while it does).
 */

const chatChunks = fixtureChunks('openai/chat/openai-text.chunks.txt');
const chatStream = splitSse(sseFromChunks([...chatChunks.slice(0, 25), ...chatChunks.slice(-2)], 'data', true));
const longWaitMs = 30_000;

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let gatewayClosed = false;

beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: pacedStreams({ '/v1/chat/completions': { events: chatStream, usageTailAt: chatStream.length - 2 } }, 15) });
  gateway = await startTestGateway({
    providers: { openai: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'k' } },
    models: [{ id: 'gpt', routes: [{ provider: 'openai', model: 'gpt-upstream' }], price: { input_per_mtok: '1.00', output_per_mtok: '10.00', effective_from: '2026-01-01' } }],
    routing: { usage_wait_after_disconnect_ms: longWaitMs },
  });
});

afterAll(async () => {
  if (!gatewayClosed) await gateway?.close();
  await upstream?.close();
});

describe('a shutdown while the gateway waits for the usage of a stream its client left', () => {
  it('stops the wait at once, records the entry with the output counted, and closes promptly', async () => {
    const recorded: { entry: LedgerEntry; at: number }[] = [];
    gateway.services.ledger.onRecord((entry) => recorded.push({ entry, at: Date.now() }));
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const { data: stream, response } = await openai.chat.completions.create({ model: 'gpt', stream: true, messages: [{ role: 'user', content: 'case=shutdown withhold tell me' }] }).withResponse();
    let deltas = 0;
    for await (const chunk of stream) {
      if ((chunk.choices[0]?.delta.content ?? '') !== '') deltas += 1;
      if (deltas === 3) break;
    }
    const requestId = response.headers.get('x-request-id');
    // The usage never comes: the gateway is now reading on, within a 30 s wait.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(caseClosedEarlyAt(upstream.requests, 'shutdown')).toBeUndefined();

    const closing = Date.now();
    await gateway.close();
    gatewayClosed = true;
    // Well within the 30 s wait, and within the grace and the time stopped calls get to end.
    expect(Date.now() - closing).toBeLessThan(longWaitMs / 3);
    // Bounds are a third of the wait, not tight timings: a loaded two-core machine takes seconds
    // to close a gateway, and the point is that the 30 s wait was not sat out.
    expect(caseClosedEarlyAt(upstream.requests, 'shutdown')! - closing).toBeLessThan(longWaitMs / 3);
    const found = recorded.find((candidate) => candidate.entry.requestId === requestId);
    expect(found?.entry).toMatchObject({ status: 499, usageEstimated: true });
    expect(found!.entry.output).toBeGreaterThan(0);
    expect(found!.at - closing).toBeLessThan(longWaitMs / 3);
  }, 20_000);
});
