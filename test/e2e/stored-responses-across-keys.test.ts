import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { readFixture } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { retrieveWhenStored } from '../support/retrieve-when-stored.js';

/**
 * Upstream response ids are the upstream's: a compatible server, a proxy or a replay may give two
 * keys' answers the same one. Each key must still read, continue and delete its own stored
 * response, never the other's, and a second answer under an id already stored never replaces it.
 */

const repeatedId = 'resp_repeated_by_the_upstream';
const recorded = JSON.parse(readFixture('openai/responses/azure-text.1.json')) as Record<string, unknown> & { output: { content: { text: string }[] }[] };

/** The recorded answer, under the repeated id, saying `text`. */
function answerSaying(text: string): string {
  const output = recorded.output.map((item) => ({ ...item, content: item.content.map((part) => ({ ...part, text })) }));
  return JSON.stringify({ ...recorded, id: repeatedId, output });
}

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let alice: OpenAI;
let bob: OpenAI;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  // The upstream answers each key's question with the same id, and with what it was asked.
  upstream.reply((request) => ({ body: answerSaying(request.body.includes('alice') ? 'for alice only' : 'for bob only') }));
  gateway = await startTestGateway({
    providers: { repeating: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-key' } },
    models: [{ id: 'gpt', routes: [{ provider: 'repeating', model: 'gpt-upstream' }] }],
  });
  const client = async (name: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: (await insertKey(gateway.services.storage, name, false)).secret, maxRetries: 0 });
  alice = await client('alice');
  bob = await client('bob');
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('two keys whose stored responses get the same upstream id', () => {
  it('each read their own, continue their own and delete only their own', async () => {
    const fromAlice = await alice.responses.create({ model: 'gpt', input: 'alice asks', store: true });
    expect(fromAlice.id).toBe(repeatedId);
    expect((await retrieveWhenStored(alice, fromAlice.id)).output_text).toBe('for alice only');

    const fromBob = await bob.responses.create({ model: 'gpt', input: 'bob asks', store: true });
    expect(fromBob.id).toBe(repeatedId);
    expect((await retrieveWhenStored(bob, fromBob.id)).output_text).toBe('for bob only');
    expect((await alice.responses.retrieve(repeatedId)).output_text).toBe('for alice only');

    // Continuing sends the key's own earlier turns upstream, and only them.
    const sentBefore = upstream.requests.length;
    await bob.responses.create({ model: 'gpt', input: 'bob again', previous_response_id: repeatedId, store: false });
    const continued = upstream.requests[sentBefore]?.body ?? '';
    expect(continued).toContain('bob asks');
    expect(continued).toContain('for bob only');
    expect(continued).not.toContain('alice');

    await bob.responses.delete(repeatedId);
    await expect(bob.responses.retrieve(repeatedId)).rejects.toMatchObject({ status: 404 });
    expect((await alice.responses.retrieve(repeatedId)).output_text).toBe('for alice only');
  });

  it('never lets a later answer under an id a key already stored replace the stored one', async () => {
    upstream.reply(() => ({ body: answerSaying('a later answer') }));
    const later = await alice.responses.create({ model: 'gpt', input: 'alice asks again', store: true });
    expect(later.id).toBe(repeatedId);
    await gateway.services.ledger.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await alice.responses.retrieve(repeatedId)).output_text).toBe('for alice only');
  });
});
