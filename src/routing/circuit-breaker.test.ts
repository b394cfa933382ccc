import { describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import { CircuitBreakers, type CallerPopulation } from './circuit-breaker.js';

const config = { enabled: true, consecutive_failures: 3, cooldown_ms: 1_000 };
const route = { target: { providerName: 'p', model: 'm' }, timeoutMs: undefined } as unknown as CatalogRoute;
const sameUpstream = { target: { providerName: 'p', model: 'm' }, timeoutMs: 5 } as unknown as CatalogRoute;

describe('a route circuit breaker', () => {
  it('opens after consecutive failures only, and a success in between starts the count again', () => {
    let now = 0;
    const breakers = new CircuitBreakers(() => now);
    breakers.failed(route, config, 'key_a');
    breakers.failed(route, config, 'key_a');
    breakers.succeeded(route);
    breakers.failed(route, config, 'key_a');
    breakers.failed(route, config, 'key_a');
    expect(breakers.admit(route, config)).toBe(true);
    breakers.failed(route, config, 'key_a');
    expect(breakers.admit(sameUpstream, config)).toBe(false);
    expect(breakers.describe([route, sameUpstream], config)).toMatchObject([{ state: 'open', consecutiveFailures: 3 }]);
    expect(breakers.secondsUntilRetry([route], config)).toBe(1);
    now = 999;
    expect(breakers.admit(route, config)).toBe(false);
  });

  it('admits one trial after the cool-down; its failure reopens, its success closes', () => {
    let now = 0;
    const breakers = new CircuitBreakers(() => now);
    for (let failure = 0; failure < 3; failure++) breakers.failed(route, config, 'key_a');
    now = 1_000;
    expect(breakers.admit(route, config)).toBe(true);
    expect(breakers.admit(route, config)).toBe(false);
    expect(breakers.describe([route], config)[0]?.state).toBe('half_open');
    breakers.failed(route, config, 'key_a');
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
    for (let failure = 0; failure < 10; failure++) breakers.failed(route, disabled, 'key_a');
    expect(breakers.admit(route, disabled)).toBe(true);
  });

  it("opens on one caller's failures only when no other caller can reach the gateway", () => {
    const several: CallerPopulation = { severalCallers: () => true };
    const breakers = new CircuitBreakers(() => 0, several);
    for (let failure = 0; failure < 5; failure++) breakers.failed(route, config, 'key_a');
    expect(breakers.admit(route, config)).toBe(true);
    breakers.failed(route, config, 'key_b');
    expect(breakers.admit(route, config)).toBe(false);
  });

  it('asks the store who may call when it has no recent answer, and opens once it says no one else', async () => {
    let answer: (several: boolean) => void = () => {};
    const pending: CallerPopulation = { severalCallers: () => new Promise<boolean>((resolve) => (answer = resolve)) };
    const breakers = new CircuitBreakers(() => 0, pending);
    for (let failure = 0; failure < 3; failure++) breakers.failed(route, config, 'key_a');
    expect(breakers.admit(route, config)).toBe(true);
    answer(false);
    await Promise.resolve();
    expect(breakers.admit(route, config)).toBe(false);
  });

  it("forgets a run of one caller's failures once the route answers", async () => {
    let answer: (several: boolean) => void = () => {};
    const pending: CallerPopulation = { severalCallers: () => new Promise<boolean>((resolve) => (answer = resolve)) };
    const breakers = new CircuitBreakers(() => 0, pending);
    for (let failure = 0; failure < 3; failure++) breakers.failed(route, config, 'key_a');
    breakers.succeeded(route);
    answer(false);
    await Promise.resolve();
    expect(breakers.admit(route, config)).toBe(true);
  });
});
