import { describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import { CircuitBreakers } from './circuit-breaker.js';

const config = { enabled: true, consecutive_failures: 3, cooldown_ms: 1_000 };
const route = { target: { providerName: 'p', model: 'm' }, timeoutMs: undefined } as unknown as CatalogRoute;
const sameUpstream = { target: { providerName: 'p', model: 'm' }, timeoutMs: 5 } as unknown as CatalogRoute;

describe('a route circuit breaker', () => {
  it('opens after consecutive failures only, and a success in between starts the count again', () => {
    let now = 0;
    const breakers = new CircuitBreakers(() => now);
    breakers.failed(route, config);
    breakers.failed(route, config);
    breakers.succeeded(route);
    breakers.failed(route, config);
    breakers.failed(route, config);
    expect(breakers.admit(route, config)).toBe(true);
    breakers.failed(route, config);
    expect(breakers.admit(sameUpstream, config)).toBe(false);
    expect(breakers.describe([route, sameUpstream], config)).toMatchObject([{ state: 'open', consecutiveFailures: 3 }]);
    expect(breakers.secondsUntilRetry([route], config)).toBe(1);
    now = 999;
    expect(breakers.admit(route, config)).toBe(false);
  });

  it('admits one trial after the cool-down; its failure reopens, its success closes', () => {
    let now = 0;
    const breakers = new CircuitBreakers(() => now);
    for (let failure = 0; failure < 3; failure++) breakers.failed(route, config);
    now = 1_000;
    expect(breakers.admit(route, config)).toBe(true);
    expect(breakers.admit(route, config)).toBe(false);
    expect(breakers.describe([route], config)[0]?.state).toBe('half_open');
    breakers.failed(route, config);
    expect(breakers.admit(route, config)).toBe(false);
    now = 2_000;
    expect(breakers.admit(route, config)).toBe(true);
    breakers.released(route);
    expect(breakers.admit(route, config)).toBe(true);
    breakers.succeeded(route);
    expect(breakers.describe([route], config)[0]).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(breakers.admit(route, config)).toBe(true);
  });

  it('never opens when disabled', () => {
    const breakers = new CircuitBreakers(() => 0);
    const disabled = { ...config, enabled: false };
    for (let failure = 0; failure < 10; failure++) breakers.failed(route, disabled);
    expect(breakers.admit(route, disabled)).toBe(true);
  });
});
