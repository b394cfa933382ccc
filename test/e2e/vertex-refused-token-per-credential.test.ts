import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../support/fixtures.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * Two Vertex providers, each with its own service account and token endpoint: a token one of them
 * has refused (401) is replaced for that provider alone, and the other keeps the token it holds, so
 * a revoked key does not send every other credential back to its token endpoint.
 */
let first: FakeVertex;
let second: FakeVertex;
let gateway: TestGateway;
let client: OpenAI;

const project = 'switchyard-test';
const location = 'us-east5';
const price = { input_per_mtok: '0.30', output_per_mtok: '2.50' };

beforeAll(async () => {
  first = await startFakeVertex({ project, location });
  second = await startFakeVertex({ project, location });
  for (const vertex of [first, second]) vertex.answer(() => ({ body: readFixture('google/generate-content/google-text.json') }));
  gateway = await startTestGateway({
    providers: {
      'vertex-first': { type: 'vertex', project, location, credentials_file: first.account.keyFile, base_url: first.url },
      'vertex-second': { type: 'vertex', project, location, credentials_file: second.account.keyFile, base_url: second.url },
    },
    models: [
      { id: 'gemini-first', routes: [{ provider: 'vertex-first', model: 'gemini-2.5-flash' }], price },
      { id: 'gemini-second', routes: [{ provider: 'vertex-second', model: 'gemini-2.5-flash' }], price },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'open-access', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await first.close();
  await second.close();
});

const ask = (model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
const bearers = (vertex: FakeVertex) => vertex.upstream.requests.map((request) => String(request.headers.authorization).replace(/^Bearer /, ''));

describe('a token refused by one Vertex credential', () => {
  it('is replaced for that credential only: the other provider keeps its token and asks its endpoint for no other', async () => {
    await ask('gemini-first');
    await ask('gemini-second');
    expect([first.tokens.issued.length, second.tokens.issued.length]).toEqual([1, 1]);

    const refused = first.tokens.issued[0]!;
    first.tokens.revoke(refused);
    await ask('gemini-first');
    // The refused token was replaced by a second grant at its own endpoint.
    expect(first.upstream.requests.map((request) => request.answer.status)).toEqual([200, 401, 200]);
    expect(first.tokens.issued).toHaveLength(2);
    expect(bearers(first)).toEqual([refused, refused, first.tokens.issued[1]]);

    await ask('gemini-second');
    // The other credential's token was never refused: it is still the one in use, with no new grant.
    expect(second.tokens.upstream.requests).toHaveLength(1);
    expect(second.tokens.issued).toHaveLength(1);
    expect(bearers(second)).toEqual([second.tokens.issued[0], second.tokens.issued[0]]);
  });
});
