import { describe, expect, it } from 'vitest';
import type { UpstreamCaps, UpstreamSlot } from './upstream-caps.js';

/** Makes a fresh store of caps (no slot taken yet). */
export type OpenUpstreamCaps = () => UpstreamCaps;

/** What every UpstreamCaps must do, in memory or shared through Redis: both run these same tests. */
export function describeUpstreamCapsContract(name: string, open: OpenUpstreamCaps): void {
  describe(`${name} upstream caps contract`, () => {
    it('hands out at most the cap of slots per provider and frees each slot once', async () => {
      const caps = open();
      const first = await caps.acquire('vendor', 2);
      const second = await caps.acquire('vendor', 2);
      expect(first).toBeDefined();
      expect(second).toBeDefined();
      expect(await caps.acquire('vendor', 2)).toBeUndefined();
      expect(caps.held().get('vendor')).toBe(2);
      (first as UpstreamSlot).release();
      (first as UpstreamSlot).release();
      expect(caps.held().get('vendor')).toBe(1);
      const third = await caps.acquire('vendor', 2);
      expect(third).toBeDefined();
      expect(await caps.acquire('vendor', 2)).toBeUndefined();
      (second as UpstreamSlot).release();
      (third as UpstreamSlot).release();
      expect(caps.held().get('vendor')).toBe(0);
    });

    it('keeps providers apart', async () => {
      const caps = open();
      expect(await caps.acquire('one', 1)).toBeDefined();
      expect(await caps.acquire('one', 1)).toBeUndefined();
      expect(await caps.acquire('two', 1)).toBeDefined();
    });

    it('follows a cap changed by a reload: a lower cap admits nothing until enough slots are freed', async () => {
      const caps = open();
      const held = [await caps.acquire('vendor', 3), await caps.acquire('vendor', 3)];
      expect(await caps.acquire('vendor', 1)).toBeUndefined();
      for (const slot of held) slot?.release();
      expect(await caps.acquire('vendor', 1)).toBeDefined();
    });
  });
}
