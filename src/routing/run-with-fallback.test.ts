import { describe, expect, it } from 'vitest';
import { AbortScope } from '../call/abort-scope.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import { GatewayError, upstreamStatusError } from '../errors/gateway-error.js';
import { CircuitBreakers } from './circuit-breaker.js';
import { runWithFallback, type FallbackPolicy } from './run-with-fallback.js';

const route: CatalogRoute = { target: { providerName: 'vendor', kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }, timeoutMs: undefined };
const config = { enabled: true, consecutive_failures: 2, cooldown_ms: 60_000 };
const several = { othersBesides: () => true };

/** One call by `caller` whose only attempt fails with `error`. */
async function failOnce(breakers: CircuitBreakers, caller: string, error: GatewayError): Promise<void> {
  const policy: FallbackPolicy = { attemptsPerRoute: 1, backoffMs: 0, breakers: { state: breakers, config, caller } };
  await runWithFallback([route], policy, new AbortScope(), () => Promise.reject(error)).catch(() => undefined);
}

describe('what a failed attempt tells the circuit breaker', () => {
  it.each([
    ['a refused connection', new GatewayError('upstream_connect_failed', 'The upstream could not be reached.')],
    ['a 500', upstreamStatusError(500, 'boom')],
    ['a 503', upstreamStatusError(503, 'overloaded')],
    ['a 429 from the provider', upstreamStatusError(429, 'slow down')],
    ['a refused credential', upstreamStatusError(401, 'bad key')],
    ['a forbidden credential', upstreamStatusError(403, 'no access')],
    ['a 502', upstreamStatusError(502, 'bad gateway')],
  ])('counts %s from two keys', async (_name, error) => {
    const breakers = new CircuitBreakers(Date.now, several);
    await failOnce(breakers, 'key_a', error);
    await failOnce(breakers, 'key_b', error);
    expect(breakers.describe([route], config)[0]?.state).toBe('open');
  });

  it.each([
    ['a time-out', new GatewayError('upstream_timeout', 'The upstream did not answer in time.')],
    ['a 400 the request caused', upstreamStatusError(400, 'bad request')],
    ['a 404 the request caused', upstreamStatusError(404, 'no such model')],
    ['a 413 the request caused', upstreamStatusError(413, 'too large')],
    ['a 422 the request caused', upstreamStatusError(422, 'unprocessable')],
    ['an answer too large', new GatewayError('upstream_answer_too_large', 'too large')],
    ['an answer that cannot be read', new GatewayError('upstream_malformed_answer', 'cut short')],
  ])('never counts %s', async (_name, error) => {
    const breakers = new CircuitBreakers(Date.now, several);
    for (const caller of ['key_a', 'key_b', 'key_c']) await failOnce(breakers, caller, error);
    expect(breakers.describe([route], config)[0]).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });
});
