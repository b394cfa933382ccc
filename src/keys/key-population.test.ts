import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../storage/ports.js';
import { apiKeyRecord } from './api-key-record.js';
import { KeyPopulation } from './key-population.js';

const key = (id: string, changes: Partial<ApiKeyRecord> = {}) => apiKeyRecord({ id, name: id, prefix: 'sy-x', hash: id, createdAt: new Date(0), ...changes });

function population(keys: ApiKeyRecord[], keylessCallsAllowed = false, now = () => 1_000_000) {
  let lists = 0;
  const store = {
    list: async () => {
      lists++;
      return keys;
    },
  };
  return { population: new KeyPopulation(store, keylessCallsAllowed, now), lists: () => lists };
}

describe('who may call, for the circuit breakers', () => {
  it('is a single caller with no key (open access) or one active key', async () => {
    expect(await population([]).population.severalCallers()).toBe(false);
    expect(await population([key('a')]).population.severalCallers()).toBe(false);
  });

  it('counts neither revoked nor expired keys', async () => {
    const keys = [key('a'), key('revoked', { revokedAt: new Date(0) }), key('expired', { expiresAt: new Date(999_999) })];
    expect(await population(keys).population.severalCallers()).toBe(false);
    expect(await population([...keys, key('b', { expiresAt: new Date(2_000_000) })]).population.severalCallers()).toBe(true);
  });

  it('counts keyless calls as one more caller when they are always let in', async () => {
    expect(await population([key('a')], true).population.severalCallers()).toBe(true);
  });

  it('answers from its count for a few seconds, then asks the store again', async () => {
    let now = 0;
    const { population: counted, lists } = population([key('a'), key('b')], false, () => now);
    expect(await counted.severalCallers()).toBe(true);
    now = 4_999;
    expect(counted.severalCallers()).toBe(true);
    expect(lists()).toBe(1);
    now = 5_000;
    expect(await counted.severalCallers()).toBe(true);
    expect(lists()).toBe(2);
  });
});
