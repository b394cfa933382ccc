import { describe, expect, it } from 'vitest';
import type { Storage } from './ports.js';
import { apiKey, at, hash } from './storage-contract-records.test-support.js';

/** Changing, rotating and marking keys used, and the audit log, as the admin API relies on them. */
export function describeKeyAdministrationContract(current: () => Storage): void {
  describe('key administration', () => {
    it('updates the fields given, clears those set to null and leaves the rest alone', async () => {
      const storage = current();
      await storage.keys.insert(apiKey({
        rpm: 60,
        tpm: 1000,
        budgetNanoUsd: 5_000_000_000n,
        dailyBudgetNanoUsd: 1_000_000_000n,
        scopes: { endpoints: ['chat'], models: ['sim-gpt'] },
      }));
      const updated = await storage.keys.update('key_1', {
        name: 'renamed',
        scopes: { models: null },
        rpm: null,
        concurrency: 3,
        monthlyBudgetNanoUsd: 2n ** 60n + 7n,
        budgetNanoUsd: null,
        expiresAt: at('2031-05-06T07:08:09.123Z'),
      });
      expect(updated).toMatchObject({
        name: 'renamed',
        scopes: { endpoints: ['chat'], models: null },
        rpm: null,
        tpm: 1000,
        concurrency: 3,
        budgetNanoUsd: null,
        dailyBudgetNanoUsd: 1_000_000_000n,
        monthlyBudgetNanoUsd: 2n ** 60n + 7n,
        expiresAt: at('2031-05-06T07:08:09.123Z'),
      });
      expect(await storage.keys.findById('key_1')).toEqual(updated);
    });

    it('answers undefined when updating an unknown key', async () => {
      expect(await current().keys.update('key_unknown', { name: 'x' })).toBeUndefined();
    });

    it('rotates a key: the new hash finds it, the old one too until its end time is stored with it', async () => {
      const storage = current();
      await storage.keys.insert(apiKey({ hash: hash('old') }));
      const until = at('2026-06-01T00:00:00.500Z');
      const rotated = await storage.keys.rotate('key_1', { prefix: 'sy-newpre', hash: hash('new') }, until);
      expect(rotated).toMatchObject({ hash: hash('new'), prefix: 'sy-newpre', previousHash: hash('old'), previousHashExpiresAt: until });
      expect((await storage.keys.findByHash(hash('new')))?.id).toBe('key_1');
      const byPrevious = await storage.keys.findByHash(hash('old'));
      expect(byPrevious).toEqual(rotated);
      // A second rotation retires the first secret entirely.
      await storage.keys.rotate('key_1', { prefix: 'sy-third', hash: hash('third') }, until);
      expect(await storage.keys.findByHash(hash('old'))).toBeUndefined();
      expect((await storage.keys.findByHash(hash('new')))?.previousHash).toBe(hash('new'));
    });

    it('does not rotate an unknown or revoked key', async () => {
      const storage = current();
      await storage.keys.insert(apiKey());
      await storage.keys.revoke('key_1', at('2026-01-01T00:00:00Z'));
      expect(await storage.keys.rotate('key_1', { prefix: 'p', hash: hash('new') }, at('2026-02-01T00:00:00Z'))).toBeUndefined();
      expect(await storage.keys.rotate('key_unknown', { prefix: 'p', hash: hash('other') }, at('2026-02-01T00:00:00Z'))).toBeUndefined();
      expect(await storage.keys.findByHash(hash('new'))).toBeUndefined();
    });

    it('records the latest use of each key and ignores an earlier time', async () => {
      const storage = current();
      await storage.keys.insert(apiKey({ id: 'key_a', hash: hash('a') }));
      await storage.keys.insert(apiKey({ id: 'key_b', hash: hash('b') }));
      await storage.keys.markUsed([
        { id: 'key_a', at: at('2026-03-01T10:00:00.250Z') },
        { id: 'key_b', at: at('2026-03-01T09:00:00Z') },
        { id: 'key_unknown', at: at('2026-03-01T09:00:00Z') },
      ]);
      await storage.keys.markUsed([{ id: 'key_a', at: at('2026-03-01T08:00:00Z') }]);
      expect((await storage.keys.findById('key_a'))?.lastUsedAt).toEqual(at('2026-03-01T10:00:00.250Z'));
      expect((await storage.keys.findById('key_b'))?.lastUsedAt).toEqual(at('2026-03-01T09:00:00Z'));
      await storage.keys.markUsed([{ id: 'key_b', at: at('2026-03-02T00:00:00Z') }]);
      expect((await storage.keys.findById('key_b'))?.lastUsedAt).toEqual(at('2026-03-02T00:00:00Z'));
    });

    it('keeps audit entries with their details and pages them newest first', async () => {
      const storage = current();
      const entries = [1, 2, 3, 4, 5].map((minute) => ({
        id: `audit_${minute}`,
        at: at(`2026-04-01T00:0${minute}:00.125Z`),
        actorKeyId: minute === 1 ? null : 'key_admin',
        action: 'key.update',
        targetId: 'key_1',
        details: { rpm: minute, scopes: { models: ['sim-gpt'], endpoints: null } },
      }));
      // Appended out of order: the list orders by time, not by insertion.
      for (const entry of [entries[2], entries[0], entries[4], entries[1], entries[3]]) await storage.audit.append(entry!);
      const first = await storage.audit.list({ limit: 2 });
      expect(first.entries.map((entry) => entry.id)).toEqual(['audit_5', 'audit_4']);
      expect(first.hasMore).toBe(true);
      expect(first.entries[0]).toEqual(entries[4]);
      const next = await storage.audit.list({ limit: 2, before: 'audit_4' });
      expect(next.entries.map((entry) => entry.id)).toEqual(['audit_3', 'audit_2']);
      const last = await storage.audit.list({ limit: 2, before: 'audit_2' });
      expect(last).toEqual({ entries: [entries[0]], hasMore: false });
      expect(last.entries[0]?.actorKeyId).toBeNull();
      expect(await storage.audit.list({ limit: 10, before: 'audit_unknown' })).toEqual({ entries: [], hasMore: false });
    });

    it('orders audit entries made in the same millisecond by id', async () => {
      const storage = current();
      const moment = at('2026-04-01T00:00:00Z');
      for (const id of ['audit_b', 'audit_a', 'audit_c']) await storage.audit.append({ id, at: moment, actorKeyId: null, action: 'key.create', targetId: null, details: {} });
      expect((await storage.audit.list({ limit: 10 })).entries.map((entry) => entry.id)).toEqual(['audit_c', 'audit_b', 'audit_a']);
      expect((await storage.audit.list({ limit: 10, before: 'audit_b' })).entries.map((entry) => entry.id)).toEqual(['audit_a']);
    });
  });
}
