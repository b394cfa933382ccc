import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, failure, startBreakerGateway, type BreakerGateway } from '../support/breaker-gateway.js';
import { readFixture } from '../support/fixtures.js';
import type { AnswerReply, ScriptedUpstream } from '../support/scripted-upstream/index.js';
import type { TestGateway } from '../support/gateway-harness.js';

/**
 * How many failures, and whose, a route's circuit breaker takes before it shuts a route for
 * everyone. With `consecutive_failures: 4` each key counts for at most 2 of them, keyless calls
 * (open to anyone under `open_access: always`, a key's holder included) never count beside keys,
 * a failed trial shuts the route again only when another key fails one too, and calls already
 * under way when it opened do not lengthen its cool-down. The upstream answers by what the request
 * asks for: `please fail` (500), `please fail slowly` (500 after 800 ms), else an answer.
 */

const cooldownMs = 1_500;
let upstream: ScriptedUpstream;
let gateway: TestGateway;
let attacker: OpenAI;
let bystander: OpenAI;

function replyTo(body: string): AnswerReply {
  const failed = { status: 500, body: '{"error":{"message":"The server had an error","type":"server_error"}}' };
  if (body.includes('please fail slowly')) return { ...failed, delayMs: 800 };
  if (body.includes('please fail')) return failed;
  return { body: readFixture('openai/chat/openai-text.json') };
}

let breaker: BreakerGateway;
let route: BreakerGateway['route'];

beforeAll(async () => {
  breaker = await startBreakerGateway({
    replyTo,
    server: { open_access: 'always' },
    routing: { attempts_per_route: 1, timeout_ms: 5_000, circuit_breaker: { consecutive_failures: 4, cooldown_ms: cooldownMs } },
    models: ['lopsided', 'with-keyless', 'trials', 'in-flight'],
  });
  ({ upstream, gateway, attacker, bystander } = breaker);
  route = (model) => breaker.route(model);
});

afterAll(() => breaker.close());

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A keyless call, as open access lets anyone make (an SDK cannot leave its key out). */
async function askKeyless(model: string, content: string): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content }] }) });
  await response.arrayBuffer();
  return response.status;
}

/** Opens `model`'s breaker the fair way: two keys meet two failures each. */
async function openByTwoKeys(model: string): Promise<void> {
  for (const client of [attacker, bystander, attacker, bystander]) expect((await failure(ask(client, model, 'please fail')))?.status).toBe(502);
  expect((await route(model)).state).toBe('open');
}

describe('whose failures open a shared circuit breaker', () => {
  it('counts each key for at most half of consecutive_failures, so one key cannot make up most of a run', async () => {
    for (let call = 0; call < 3; call++) expect((await failure(ask(attacker, 'lopsided', 'please fail')))?.status).toBe(502);
    expect((await failure(ask(bystander, 'lopsided', 'please fail')))?.status).toBe(502);
    expect((await route('lopsided')).state).toBe('closed');
    const before = upstream.requests.length;
    expect((await ask(bystander, 'lopsided')).choices[0]?.message.content).toBeTruthy();
    expect(upstream.requests.length).toBe(before + 1);
  });

  it("never takes a key's failures and keyless calls for two callers, since the key's holder can call without it", async () => {
    for (let call = 0; call < 2; call++) expect((await failure(ask(attacker, 'with-keyless', 'please fail')))?.status).toBe(502);
    for (let call = 0; call < 2; call++) expect(await askKeyless('with-keyless', 'please fail')).toBe(502);
    expect((await route('with-keyless')).state).toBe('closed');
    expect((await ask(bystander, 'with-keyless')).choices[0]?.message.content).toBeTruthy();
  });
});

describe('a half-open breaker', () => {
  it('lets another key take the trial when one key fails its trial, and closes when that trial works', async () => {
    await openByTwoKeys('trials');
    await sleep(cooldownMs + 100);
    expect((await failure(ask(attacker, 'trials', 'please fail')))?.status).toBe(502);
    expect((await route('trials')).state).toBe('half_open');
    // The key whose trial failed gets no second one while no other key has tried.
    expect((await failure(ask(attacker, 'trials')))?.code).toBe('circuit_open');
    const before = upstream.requests.length;
    expect((await ask(bystander, 'trials')).choices[0]?.message.content).toBeTruthy();
    expect(upstream.requests.length).toBe(before + 1);
    expect((await route('trials')).state).toBe('closed');
  });

  it('shuts the route again when trials of two keys fail', async () => {
    await openByTwoKeys('trials');
    await sleep(cooldownMs + 100);
    expect((await failure(ask(attacker, 'trials', 'please fail')))?.status).toBe(502);
    expect((await failure(ask(bystander, 'trials', 'please fail')))?.status).toBe(502);
    expect((await route('trials')).state).toBe('open');
    expect((await failure(ask(bystander, 'trials')))?.code).toBe('circuit_open');
  });

  it('keeps its cool-down when calls under way before it opened fail after', async () => {
    const slow = failure(ask(attacker, 'in-flight', 'please fail slowly'));
    await sleep(50);
    await openByTwoKeys('in-flight');
    const opened = await route('in-flight');
    expect((await slow)?.status).toBe(502);
    expect((await route('in-flight')).retry_at).toBe(opened.retry_at);
  });
});
