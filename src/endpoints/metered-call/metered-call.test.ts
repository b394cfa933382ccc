import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertLimitedKey, startOfAFreshMinute } from '../../../test/support/limited-keys.js';
import { startTestGateway, type TestGateway } from '../../../test/support/gateway-harness.js';
import type { CatalogModel } from '../../catalog/model-catalog.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { chatFormat } from '../../formats/chat/index.js';
import { parseJsonObject } from '../../http/read-request-body.js';
import { writeAnswer } from '../../http/write-answer.js';
import { newRequestId } from '../../http/request-id.js';
import { meterCall, meterFailedCall } from '../../metering/meter-call.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { runMeteredCall } from './metered-call.js';
import type { MeteredAnswer, MeteredEndpoint } from './metered-endpoint.js';
import { readJsonRequest } from './read-json-request.js';

/**
 * A new paid endpoint is one declaration: this one echoes its text, reserves a fixed worst case
 * and meters 1,000 input tokens. Everything else a paid call meets comes from the pipeline.
 */
interface Echo {
  readonly model: CatalogModel;
  readonly text: string;
}

const sent: string[] = [];

const echoEndpoint: MeteredEndpoint<string, Echo, MeteredAnswer> = {
  family: 'chat',
  format: chatFormat,
  read: async (call) => (await readJsonRequest(call, 'chat')).rawBody,
  decode(call, rawBody) {
    const body = parseJsonObject(rawBody);
    if (typeof body.text !== 'string') throw new GatewayError('invalid_field', 'text must be a string.', { param: 'text' });
    return { model: resolveModel(call.snapshot.catalog, String(body.model), 'text', call.key), text: body.text };
  },
  worstCase: () => 2_000_000n,
  async send(_call, { text }) {
    sent.push(text);
    if (text === 'fail') throw new GatewayError('upstream_unavailable', 'The upstream is down.');
    return { contentType: 'application/json', body: JSON.stringify({ echo: text }) };
  },
  meter: (ledger, call, { model }, answer) =>
    meterCall(
      ledger,
      { ...answer, completion: Promise.resolve({ usage: { inputUncached: 1000, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 }, completed: true, status: 200 }) },
      { requestId: call.requestId, key: call.key, model, route: undefined, family: 'chat', rawBodyLength: 0, startedAt: call.startedAt },
    ),
  meterFailure: (ledger, call, { model }, status) =>
    meterFailedCall(ledger, { requestId: call.requestId, key: call.key, model, route: undefined, family: 'chat', rawBodyLength: 0, startedAt: call.startedAt }, status),
};

let gateway: TestGateway;
let server: Server | undefined;
let url: string;

beforeAll(async () => {
  gateway = await startTestGateway({
    server: { open_access: 'never' },
    providers: { up: { type: 'openai', base_url: 'http://127.0.0.1:9' } },
    models: [{ id: 'echo', routes: [{ provider: 'up', model: 'echo-x' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } }],
  });
  const listening = createServer((incoming, outgoing) => {
    void runMeteredCall(echoEndpoint, { incoming, outgoing, requestId: newRequestId() }, gateway.services).then((answer) => writeAnswer(outgoing, answer));
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await gateway?.close();
});
beforeEach(() => {
  sent.length = 0;
});

function post(secret: string | undefined, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }) },
    body: JSON.stringify(body),
  });
}

async function entriesOf(keyId: string) {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

describe('an endpoint declared to the metered-call pipeline', () => {
  it('refuses a caller without a key in its format, before reading or sending anything', async () => {
    const answer = await post(undefined, { model: 'echo', text: 'hi' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect(sent).toEqual([]);
  });

  it('answers with its request id, rate-limit headers and the cost of its one ledger entry', async () => {
    await startOfAFreshMinute();
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { rpm: 5 });
    const answer = await post(secret, { model: 'echo', text: 'hi' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ echo: 'hi' });
    expect(answer.headers.get('x-ratelimit-limit-requests')).toBe('5');
    expect(answer.headers.get('x-ratelimit-remaining-requests')).toBe('4');
    expect(answer.headers.get('x-request-cost-usd')).toBe('0.001');
    const entries = await entriesOf(id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ requestId: answer.headers.get('x-request-id'), status: 200, inputUncached: 1000, costNanoUsd: 1_000_000n });
  });

  it('counts a body refused after admission against the minute, with the headers, and records nothing', async () => {
    await startOfAFreshMinute();
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { rpm: 5 });
    const answer = await post(secret, { model: 'echo', text: 42 });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { param: string } }).error.param).toBe('text');
    expect(answer.headers.get('x-ratelimit-remaining-requests')).toBe('4');
    expect(sent).toEqual([]);
    expect(await entriesOf(id)).toEqual([]);
  });

  it('refuses a worst case the budget has no room for with 402, sending and recording nothing', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 1_999_999n });
    const answer = await post(secret, { model: 'echo', text: 'hi' });
    expect(answer.status).toBe(402);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('budget_exhausted');
    expect(sent).toEqual([]);
    expect(await entriesOf(id)).toEqual([]);
  });

  it('records a call that failed after validation once, at 0, and gives its reservation back', async () => {
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 3_000_000n });
    const failed = await post(secret, { model: 'echo', text: 'fail' });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('x-request-cost-usd')).toBeNull();
    const entries = await entriesOf(id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ requestId: failed.headers.get('x-request-id'), status: 503, costNanoUsd: 0n });
    // Held still, the failed call's 2,000,000 would leave no room for this one's.
    expect((await post(secret, { model: 'echo', text: 'again' })).status).toBe(200);
    expect(sent).toEqual(['fail', 'again']);
  });
});
