import { describe, expect, it } from 'vitest';
import { CachedValue } from './cached-value.js';

describe('CachedValue', () => {
  it('fetches once per period and again after it', async () => {
    let clock = 0;
    let fetches = 0;
    const value = new CachedValue(async () => ++fetches, 1_000, () => clock);
    expect(await value.get()).toBe(1);
    clock = 999;
    expect(await value.get()).toBe(1);
    clock = 1_000;
    expect(await value.get()).toBe(2);
  });

  it('does not keep a failed fetch', async () => {
    let fetches = 0;
    const value = new CachedValue(async () => {
      fetches += 1;
      if (fetches === 1) throw new Error('down');
      return fetches;
    }, 60_000);
    await expect(value.get()).rejects.toThrow('down');
    expect(await value.get()).toBe(2);
  });
});
