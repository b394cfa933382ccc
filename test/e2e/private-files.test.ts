import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings } from '../support/video-jobs.js';
import { loadBetterSqlite3 } from '../../src/storage/sqlite/load-better-sqlite3.js';

const { Database } = loadBetterSqlite3();

/**
 * What the gateway keeps on disk is readable by its own user only. The SQLite database holds the
 * URL-signing secret, key hashes and stored conversations; the content directory holds every
 * generated image and video. A gateway started on a fresh directory creates them owner-only, and
 * one started on files an earlier build left world-readable makes them owner-only at start.
 */

const workDirectories: string[] = [];
afterAll(() => {
  for (const directory of workDirectories) rmSync(directory, { recursive: true, force: true });
});

function workDirectory(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-private-files-'));
  workDirectories.push(directory);
  return directory;
}

/** The permission bits of a file or directory, as `0o…` text so a failure reads well. */
function modeOf(file: string): string {
  return `0o${(statSync(file).mode & 0o777).toString(8)}`;
}

/** Every file and directory under `root`, with its mode. */
function modesUnder(root: string): Record<string, string> {
  const modes: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    modes[path.relative(root, file)] = modeOf(file);
  }
  return modes;
}

async function startOn(directory: string): Promise<TestGateway> {
  return startTestGateway({
    ...defaultConfig({}),
    database: { url: `sqlite:${path.join(directory, 'data', 'switchyard.db')}` },
    content: { dir: path.join(directory, 'data', 'content') },
    videos: quickVideoSettings,
  });
}

describe('files on disk', () => {
  it('creates the data directory, the database with its -wal and -shm files, and the content directory and its files owner-only', async () => {
    const directory = workDirectory();
    const gateway = await startOn(directory);
    try {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
      await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello' }] });
      const image = await client.images.generate({ model: 'sim-image', prompt: 'a lighthouse', size: '1024x1024', quality: 'low', response_format: 'url' });
      expect(image.data?.[0]?.url).toBeTruthy();
      const video = await client.videos.create({ model: 'sim-video', prompt: 'a lighthouse [video-ms:200]', seconds: '4', size: '1280x720' });
      expect((await pollUntilDone(client, video.id)).video.status).toBe('completed');
      await gateway.services.ledger.flush();

      const data = path.join(directory, 'data');
      expect(modeOf(data)).toBe('0o700');
      for (const file of ['switchyard.db', 'switchyard.db-wal', 'switchyard.db-shm']) expect(modeOf(path.join(data, file)), file).toBe('0o600');
      const content = path.join(data, 'content');
      expect(modeOf(content)).toBe('0o700');
      const stored = modesUnder(content);
      // An image and its sidecar, a video and its thumbnail with theirs, and the folders holding them.
      expect(Object.keys(stored).length).toBeGreaterThanOrEqual(4);
      for (const [file, mode] of Object.entries(stored)) {
        const isDirectory = statSync(path.join(content, file)).isDirectory();
        expect(mode, file).toBe(isDirectory ? '0o700' : '0o600');
      }
    } finally {
      await gateway.close();
    }
  });

  it('makes a world-readable database, its -wal and -shm files and the content directory owner-only at start', async () => {
    const directory = workDirectory();
    const data = path.join(directory, 'data');
    mkdirSync(path.join(data, 'content'), { recursive: true });
    const file = path.join(data, 'switchyard.db');
    // A database in WAL mode held open, as an earlier build's crash would leave it: -wal and -shm stay.
    const earlier = new Database(file);
    earlier.pragma('journal_mode = WAL');
    earlier.exec('create table left_behind (value text)');
    for (const name of ['switchyard.db', 'switchyard.db-wal', 'switchyard.db-shm', 'content']) chmodSync(path.join(data, name), name === 'content' ? 0o755 : 0o644);
    writeFileSync(path.join(data, 'content', 'old.png'), 'old');
    const gateway = await startOn(directory);
    try {
      for (const name of ['switchyard.db', 'switchyard.db-wal', 'switchyard.db-shm']) expect(modeOf(path.join(data, name)), name).toBe('0o600');
      expect(modeOf(path.join(data, 'content'))).toBe('0o700');
    } finally {
      await gateway.close();
      earlier.close();
    }
  });
});
