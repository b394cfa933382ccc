import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from './api-key.js';
import { apiKeyRecord } from './api-key-record.js';
import { KeyPopulation } from './key-population.js';
import { keylessCaller } from './keyless-caller.js';

const key = (id: string, changes: Partial<ApiKeyRecord> = {}) => apiKeyRecord({ id, name: id, prefix: 'sy-x', hash: id, createdAt: new Date(0), ...changes });

function population(keys: ApiKeyRecord[], now = () => 1_000_000) {
  let lists = 0;
  const store = {
    list: async () => {
      lists++;
      return keys;
    },
  };
  return { population: new KeyPopulation(store, now), lists: () => lists };
}

describe('who else may call, for the circuit breakers', () => {
  it('is no one besides the only active key, and no one besides keyless calls while no key exists', async () => {
    expect(await population([]).population.othersBesides(keylessCaller)).toBe(false);
    expect(await population([key('a')]).population.othersBesides('a')).toBe(false);
  });

  it('counts neither revoked nor expired keys', async () => {
    const keys = [key('a'), key('revoked', { revokedAt: new Date(0) }), key('expired', { expiresAt: new Date(999_999) })];
    expect(await population(keys).population.othersBesides('a')).toBe(false);
    expect(await population([...keys, key('b', { expiresAt: new Date(2_000_000) })]).population.othersBesides('a')).toBe(true);
  });

  it('takes any active key as someone besides keyless calls, but keyless calls never as someone besides a key', async () => {
    expect(await population([key('a')]).population.othersBesides(keylessCaller)).toBe(true);
    expect(await population([key('a')]).population.othersBesides('a')).toBe(false);
  });

  it('answers from its count for a few seconds, then asks the store again', async () => {
    let now = 0;
    const { population: counted, lists } = population([key('a'), key('b')], () => now);
    expect(await counted.othersBesides('a')).toBe(true);
    now = 4_999;
    expect(counted.othersBesides('a')).toBe(true);
    expect(lists()).toBe(1);
    now = 5_000;
    expect(await counted.othersBesides('a')).toBe(true);
    expect(lists()).toBe(2);
  });
});
