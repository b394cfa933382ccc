import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, failure, startBreakerGateway, type BreakerGateway } from '../support/breaker-gateway.js';
import { readFixture } from '../support/fixtures.js';
import type { AnswerReply, ScriptedUpstream } from '../support/scripted-upstream/index.js';

/**
 * A route's circuit breaker is shared by every key, so one key must not be able to open it for
 * the others: its own time-outs and the client errors it causes never count, and upstream
 * failures open the breaker only when more than one key met them. The upstream answers by what
 * the request asks for: `please time out`, `please refuse` (400), `please fail` (500), else an answer.
 */

let upstream: ScriptedUpstream;
let attacker: OpenAI;
let bystander: OpenAI;

function replyTo(body: string): AnswerReply {
  if (body.includes('please time out')) return { delayMs: 2_500, body: readFixture('openai/chat/openai-text.json') };
  if (body.includes('please refuse')) return { status: 400, body: '{"error":{"message":"Invalid schema for function","type":"invalid_request_error"}}' };
  if (body.includes('please fail')) return { status: 500, body: '{"error":{"message":"The server had an error","type":"server_error"}}' };
  return { body: readFixture('openai/chat/openai-text.json') };
}

let breaker: BreakerGateway;

beforeAll(async () => {
  breaker = await startBreakerGateway({
    replyTo,
    routing: { attempts_per_route: 1, timeout_ms: 1_000, circuit_breaker: { consecutive_failures: 2, cooldown_ms: 60_000 } },
    models: ['timeouts', 'refusals', 'failures', 'everyone'],
  });
  ({ upstream, attacker, bystander } = breaker);
});

afterAll(() => breaker.close());

const routeState = async (model: string) => (await breaker.route(model)).state;

describe('one key cannot open the shared circuit breaker for the others', () => {
  it("never counts the time-outs of a key's own slow requests", async () => {
    const timedOut = await Promise.all([1, 2, 3].map(() => failure(ask(attacker, 'timeouts', 'please time out'))));
    expect(timedOut.map((error) => error?.status)).toEqual([504, 504, 504]);
    expect(await routeState('timeouts')).toBe('closed');
    const before = upstream.requests.length;
    const answer = await ask(bystander, 'timeouts');
    expect(answer.choices[0]?.message.content).toBeTruthy();
    expect(upstream.requests.length).toBe(before + 1);
  });

  it("never counts the client errors a key's requests cause", async () => {
    for (let call = 0; call < 3; call++) expect((await failure(ask(attacker, 'refusals', 'please refuse')))?.status).toBe(400);
    expect(await routeState('refusals')).toBe('closed');
    expect((await ask(bystander, 'refusals')).choices[0]?.message.content).toBeTruthy();
  });

  it('does not open on upstream failures that only one key meets while other keys are active', async () => {
    for (let call = 0; call < 4; call++) expect((await failure(ask(attacker, 'failures', 'please fail')))?.status).toBe(502);
    expect(await routeState('failures')).toBe('closed');
    const before = upstream.requests.length;
    expect((await ask(bystander, 'failures')).choices[0]?.message.content).toBeTruthy();
    expect(upstream.requests.length).toBe(before + 1);
  });

  it('still opens when upstream failures come from several keys, for every key', async () => {
    expect((await failure(ask(attacker, 'everyone', 'please fail')))?.status).toBe(502);
    expect((await failure(ask(bystander, 'everyone', 'please fail')))?.status).toBe(502);
    expect(await routeState('everyone')).toBe('open');
    const before = upstream.requests.length;
    const refused = await failure(ask(bystander, 'everyone'));
    expect(refused?.status).toBe(503);
    expect(refused?.code).toBe('circuit_open');
    expect(upstream.requests.length).toBe(before);
  });
});
