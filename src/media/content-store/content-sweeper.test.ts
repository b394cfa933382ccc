import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logging/logger.js';
import { ContentSweeper } from './content-sweeper.js';
import { LocalDirectoryContentStore } from './local-directory-content-store.js';

const logger = createLogger('silent');
const now = new Date('2026-06-01T12:00:00Z');
const minutes = (count: number): Date => new Date(now.getTime() + count * 60_000);

function store(): LocalDirectoryContentStore {
  return new LocalDirectoryContentStore(mkdtempSync(path.join(tmpdir(), 'switchyard-sweeper-')));
}

async function keysOf(target: LocalDirectoryContentStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of target.list()) keys.push(entry.key);
  return keys.sort();
}

describe('ContentSweeper', () => {
  it('removes expired content and keeps the rest', async () => {
    const target = store();
    await target.put('videos/a/video', Buffer.alloc(10), 'video/mp4', { expiresAt: minutes(-1) });
    await target.put('images/b.png', Buffer.alloc(10), 'image/png', { expiresAt: minutes(5) });
    await target.put('other/c', Buffer.alloc(10), 'application/octet-stream');
    const removed = await new ContentSweeper(target, { intervalSeconds: 60 }, logger).sweepOnce(now);
    expect(removed).toEqual(['videos/a/video']);
    expect(await keysOf(target)).toEqual(['images/b.png', 'other/c']);
  });

  it('holds the store under its size cap, soonest to expire first', async () => {
    const target = store();
    await target.put('late', Buffer.alloc(100), 'application/octet-stream', { expiresAt: minutes(60) });
    await target.put('soon', Buffer.alloc(100), 'application/octet-stream', { expiresAt: minutes(1) });
    await target.put('never', Buffer.alloc(100), 'application/octet-stream');
    const removed = await new ContentSweeper(target, { intervalSeconds: 60, maxBytes: 150 }, logger).sweepOnce(now);
    expect(removed).toEqual(['soon', 'late']);
    expect(await keysOf(target)).toEqual(['never']);
  });

  it('joins a sweep already running rather than starting a second', async () => {
    const target = store();
    await target.put('gone', Buffer.alloc(1), 'application/octet-stream', { expiresAt: minutes(-1) });
    const sweeper = new ContentSweeper(target, { intervalSeconds: 60 }, logger);
    const [first, second] = await Promise.all([sweeper.sweepOnce(now), sweeper.sweepOnce(now)]);
    expect(first).toEqual(['gone']);
    expect(second).toBe(first);
  });
});
