import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonFixture } from '../fixtures.js';
import { sampleLifetimeMs, startFakeBfl, type FakeBfl } from './fake-bfl.js';

/**
 * The fake BFL against BFL's documented answers (test/fixtures/bfl/, provenance in its README):
 * BFL has no SDK to drive it with, so each of its answers must carry the documented members with
 * the documented types, and its protocol must behave as BFL documents it.
 */

let bfl: FakeBfl;
beforeAll(async () => {
  bfl = await startFakeBfl();
  bfl.pendingPolls = 1;
});
afterAll(() => bfl.close());

const keyed = (): Record<string, string> => ({ 'x-key': bfl.key, 'content-type': 'application/json' });

async function post(path: string, body: unknown, headers = keyed()): Promise<Response> {
  return fetch(`${bfl.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** Every member of the documented answer is in the fake's, with the same JSON type. */
function expectDocumentedShape(answer: Record<string, unknown>, documented: Record<string, unknown>): void {
  for (const [member, value] of Object.entries(documented)) {
    expect(answer, member).toHaveProperty(member);
    if (value !== null) expect(typeof answer[member], member).toBe(typeof value);
  }
}

describe('the fake BFL', () => {
  it('refuses a call without the account key, as BFL does', async () => {
    const refused = await post('/v1/flux-pro-1.1', readJsonFixture('bfl/flux-pro-1.1.submit-request.json'), { 'content-type': 'application/json' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toHaveProperty('detail');
  });

  it('answers the documented request with the documented submit answer, polled Pending then Ready at the polling URL', async () => {
    const submitted = await post('/v1/flux-pro-1.1', readJsonFixture('bfl/flux-pro-1.1.submit-request.json'));
    expect(submitted.status).toBe(200);
    const answer = (await submitted.json()) as Record<string, unknown>;
    expectDocumentedShape(answer, readJsonFixture('bfl/flux-pro-1.1.submit-response.json') as Record<string, unknown>);
    expectDocumentedShape(answer, readJsonFixture('bfl/submit-response.with-cost.json') as Record<string, unknown>);
    const pollingUrl = String(answer.polling_url);
    expect(pollingUrl.startsWith(`${bfl.url}${bfl.regionalPath}/v1/get_result?id=`)).toBe(true);

    const pending = (await (await fetch(pollingUrl, { headers: keyed() })).json()) as Record<string, unknown>;
    expectDocumentedShape(pending, readJsonFixture('bfl/get-result.pending.json') as Record<string, unknown>);
    expect(pending.status).toBe('Pending');
    const ready = (await (await fetch(pollingUrl, { headers: keyed() })).json()) as { status: string; result: Record<string, unknown> };
    expectDocumentedShape(ready, readJsonFixture('bfl/get-result.ready.json') as Record<string, unknown>);
    expectDocumentedShape(ready.result, (readJsonFixture('bfl/get-result.ready.json') as { result: Record<string, unknown> }).result);
    expect(ready.status).toBe('Ready');

    // The documented request asks a 1024×768 JPEG: the sample is one, and needs no key.
    const sample = await fetch(String(ready.result.sample));
    expect(sample.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(Buffer.from(await sample.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 768 });
    // Ten minutes later the delivery URL has expired.
    bfl.advanceClock(sampleLifetimeMs + 1);
    expect((await fetch(String(ready.result.sample))).status).toBe(403);
  });

  it('does not know a task on the global path, only at the polling URL it named', async () => {
    const answer = (await (await post('/v1/flux-dev', { prompt: 'x' })).json()) as { id: string };
    const global = (await (await fetch(`${bfl.url}/v1/get_result?id=${answer.id}`, { headers: keyed() })).json()) as Record<string, unknown>;
    expectDocumentedShape(global, readJsonFixture('bfl/get-result.task-not-found.json') as Record<string, unknown>);
    expect(global.status).toBe('Task not found');
  });

  it('ends moderated and failed tasks with the documented statuses, and refuses a size out of range with the documented 422', async () => {
    for (const [directive, fixture] of [
      ['[request-moderated]', 'bfl/get-result.request-moderated.json'],
      ['[content-moderated]', 'bfl/get-result.content-moderated.json'],
      ['[error]', 'bfl/get-result.error.json'],
    ] as const) {
      const { polling_url: pollingUrl } = (await (await post('/v1/flux-pro-1.1', { prompt: `x ${directive}` })).json()) as { polling_url: string };
      await fetch(pollingUrl, { headers: keyed() });
      const ended = (await (await fetch(pollingUrl, { headers: keyed() })).json()) as Record<string, unknown>;
      const documented = readJsonFixture(fixture) as Record<string, unknown>;
      expectDocumentedShape(ended, documented);
      expect(ended.status).toBe(documented.status);
    }
    const invalid = await post('/v1/flux-pro-1.1', { prompt: 'x', width: 2048, height: 768 });
    expect(invalid.status).toBe(422);
    const detail = ((await invalid.json()) as { detail: Record<string, unknown>[] }).detail[0] ?? {};
    expectDocumentedShape(detail, (readJsonFixture('bfl/validation-error.json') as { detail: Record<string, unknown>[] }).detail[0] ?? {});
  });
});
