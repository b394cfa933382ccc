import { describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import { keylessCaller } from '../keys/keyless-caller.js';
import { CircuitBreakers, type Admission, type CallerPopulation } from './circuit-breaker.js';

const config = { enabled: true, consecutive_failures: 3, cooldown_ms: 1_000 };
const route = { target: { providerName: 'p', model: 'm' }, timeoutMs: undefined } as unknown as CatalogRoute;
const sameUpstream = { target: { providerName: 'p', model: 'm' }, timeoutMs: 5 } as unknown as CatalogRoute;
const several: CallerPopulation = { othersBesides: () => true };

/** A breaker set and the moves of its callers on `route`. */
function breakersAt(clock: { now: number }, population?: CallerPopulation, settings = config) {
  const breakers = new CircuitBreakers(() => clock.now, population);
  const admit = (caller: string): Admission | undefined => breakers.admit(route, settings, caller);
  const fail = (caller: string): void => {
    const admission = admit(caller);
    if (admission === undefined) throw new Error(`${caller} was not let through`);
    breakers.failed(route, settings, admission);
  };
  const state = () => breakers.describe([route], settings)[0];
  return { breakers, admit, fail, state };
}

describe('a route circuit breaker', () => {
  it('opens after consecutive failures only, and a success in between starts the count again', () => {
    const clock = { now: 0 };
    const { breakers, admit, fail, state } = breakersAt(clock);
    fail('key_a');
    fail('key_a');
    breakers.succeeded(route);
    fail('key_a');
    fail('key_a');
    expect(admit('key_a')).toBeDefined();
    fail('key_a');
    expect(breakers.admit(sameUpstream, config, 'key_a')).toBeUndefined();
    expect(state()).toMatchObject({ state: 'open', consecutiveFailures: 3 });
    expect(breakers.secondsUntilRetry([route], config)).toBe(1);
    clock.now = 999;
    expect(admit('key_a')).toBeUndefined();
  });

  it('admits one trial after the cool-down; its failure reopens, its success closes', () => {
    const clock = { now: 0 };
    const { breakers, admit, fail, state } = breakersAt(clock);
    for (let failure = 0; failure < 3; failure++) fail('key_a');
    clock.now = 1_000;
    const trial = admit('key_a');
    expect(trial).toMatchObject({ trial: true });
    expect(admit('key_a')).toBeUndefined();
    expect(state()?.state).toBe('half_open');
    breakers.failed(route, config, trial as Admission);
    expect(admit('key_a')).toBeUndefined();
    clock.now = 2_000;
    const released = admit('key_a');
    breakers.released(route, released as Admission);
    expect(admit('key_a')).toBeDefined();
    breakers.succeeded(route);
    expect(state()).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(admit('key_a')).toBeDefined();
  });

  it('never opens when disabled', () => {
    const disabled = { ...config, enabled: false };
    const { admit, fail } = breakersAt({ now: 0 }, undefined, disabled);
    for (let failure = 0; failure < 10; failure++) fail('key_a');
    expect(admit('key_a')).toBeDefined();
  });

  it("opens on one caller's failures only when no other caller can reach the gateway", () => {
    const { admit, fail } = breakersAt({ now: 0 }, several);
    for (let failure = 0; failure < 5; failure++) fail('key_a');
    expect(admit('key_a')).toBeDefined();
    fail('key_b');
    expect(admit('key_a')).toBeUndefined();
  });

  it('counts each key for at most half of consecutive_failures, rounded up', () => {
    const five = { ...config, consecutive_failures: 5 };
    const { admit, fail } = breakersAt({ now: 0 }, several, five);
    for (let failure = 0; failure < 4; failure++) fail('key_a');
    fail('key_b');
    expect(admit('key_b')).toBeDefined();
    fail('key_b');
    expect(admit('key_b')).toBeUndefined();
  });

  it('never counts keyless failures beside a key, nor as a second caller', () => {
    const { admit, fail, state } = breakersAt({ now: 0 }, several);
    for (let failure = 0; failure < 5; failure++) {
      fail('key_a');
      fail(keylessCaller);
    }
    expect(admit('key_a')).toBeDefined();
    expect(state()?.state).toBe('closed');
  });

  it('opens on keyless failures alone when no key exists', () => {
    const keylessOnly: CallerPopulation = { othersBesides: (caller) => caller !== keylessCaller };
    const { admit, fail } = breakersAt({ now: 0 }, keylessOnly);
    for (let failure = 0; failure < 3; failure++) fail(keylessCaller);
    expect(admit(keylessCaller)).toBeUndefined();
  });

  it('asks the store who may call when it has no recent answer, and opens once it says no one else', async () => {
    let answer: (others: boolean) => void = () => {};
    const pending: CallerPopulation = { othersBesides: () => new Promise<boolean>((resolve) => (answer = resolve)) };
    const { admit, fail } = breakersAt({ now: 0 }, pending);
    for (let failure = 0; failure < 3; failure++) fail('key_a');
    expect(admit('key_a')).toBeDefined();
    answer(false);
    await Promise.resolve();
    expect(admit('key_a')).toBeUndefined();
  });

  it("forgets a run of one caller's failures once the route answers", async () => {
    let answer: (others: boolean) => void = () => {};
    const pending: CallerPopulation = { othersBesides: () => new Promise<boolean>((resolve) => (answer = resolve)) };
    const { breakers, admit, fail } = breakersAt({ now: 0 }, pending);
    for (let failure = 0; failure < 3; failure++) fail('key_a');
    breakers.succeeded(route);
    answer(false);
    await Promise.resolve();
    expect(admit('key_a')).toBeDefined();
  });
});

describe('a breaker that several keys opened', () => {
  function openedByTwoKeys(clock: { now: number }) {
    const breaker = breakersAt(clock, several);
    for (const caller of ['key_a', 'key_b', 'key_a']) breaker.fail(caller);
    expect(breaker.admit('key_a')).toBeUndefined();
    return breaker;
  }

  it("stays half-open when one key's trial fails, and gives the next trial to another key", () => {
    const clock = { now: 0 };
    const { breakers, admit, fail, state } = openedByTwoKeys(clock);
    clock.now = 1_000;
    fail('key_a');
    expect(state()).toMatchObject({ state: 'half_open', openedAt: new Date(0) });
    expect(admit('key_a')).toBeUndefined();
    const trial = admit('key_b');
    expect(trial).toMatchObject({ trial: true });
    breakers.succeeded(route);
    expect(state()?.state).toBe('closed');
  });

  it('reopens for another cool-down when trials of two keys fail', () => {
    const clock = { now: 0 };
    const { admit, fail, state } = openedByTwoKeys(clock);
    clock.now = 1_000;
    fail('key_a');
    clock.now = 1_100;
    fail('key_b');
    expect(state()).toMatchObject({ state: 'open', openedAt: new Date(1_100) });
    expect(admit('key_c')).toBeUndefined();
    clock.now = 2_100;
    expect(admit('key_a')).toMatchObject({ trial: true });
  });

  it('never takes a keyless trial and a key trial for two callers', () => {
    const clock = { now: 0 };
    const { admit, fail, state } = openedByTwoKeys(clock);
    clock.now = 1_000;
    fail('key_a');
    fail(keylessCaller);
    expect(state()?.state).toBe('half_open');
    expect(admit('key_b')).toMatchObject({ trial: true });
  });

  it('keeps its cool-down when calls under way before it opened fail after', () => {
    const clock = { now: 0 };
    const { breakers, admit, fail, state } = breakersAt(clock, several);
    const underWay = admit('key_a') as Admission;
    for (const caller of ['key_a', 'key_b', 'key_a']) fail(caller);
    clock.now = 500;
    breakers.failed(route, config, underWay);
    expect(state()).toMatchObject({ state: 'open', openedAt: new Date(0), retryAt: new Date(1_000) });
    clock.now = 1_000;
    const trial = admit('key_b');
    expect(trial).toMatchObject({ trial: true });
    // A call from before that is released or fails now does not end the trial.
    breakers.released(route, underWay);
    expect(admit('key_c')).toBeUndefined();
  });

  it('reopens on the trial of the only caller, who has no one else to shut out', () => {
    const clock = { now: 0 };
    const { admit, fail, state } = breakersAt(clock);
    for (let failure = 0; failure < 3; failure++) fail('key_a');
    clock.now = 1_000;
    fail('key_a');
    expect(state()).toMatchObject({ state: 'open', openedAt: new Date(1_000) });
    expect(admit('key_a')).toBeUndefined();
  });
});
