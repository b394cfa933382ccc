import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

/**
 * What a person sees at a terminal. The terminal is stood in for by `SWITCHYARD_LOG_FORMAT=readable`
 * (stdout here is a pipe, so `auto` would choose JSON, which fresh-start.test.ts covers).
 */
describe('serve in readable form', () => {
  let workDirectory: string;
  let gateway: SpawnedGateway;

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-readable-'));
    gateway = await spawnGateway(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: workDirectory,
      env: zeroConfigEnvironment({ SWITCHYARD_LOG_FORMAT: 'readable' }),
      urlPattern: /^switchyard listening on (http:\/\/\S+)/m,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('starts with one line naming the address, the models, the database and open access', async () => {
    const firstLine = gateway.stdout().split('\n')[0];
    expect(firstLine).toBe(
      `switchyard listening on ${gateway.url} | text models: sim-gpt, sim-claude, sim-gemini | image models: sim-image | video models: sim-video | ` +
        `database: SQLite ${path.join(workDirectory, 'data', 'switchyard.db')} | open access: on until the first API key is created`,
    );
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]?.message.content).toContain('hello');
  });

  it('logs one readable line per record, no JSON', async () => {
    expect(await gateway.stop()).toBe(0);
    const lines = gateway.stdout().trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  shutting down: draining calls in flight\b/);
    expect(lines.at(-1)).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  stopped$/);
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
  });
});

describe('serve in readable form with Redis configured', () => {
  let workDirectory: string;
  let gateway: SpawnedGateway;

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-readable-redis-'));
    // Nothing listens there: the gateway starts anyway (Redis's fail modes apply), and says where Redis is.
    gateway = await spawnGateway(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: workDirectory,
      env: zeroConfigEnvironment({ SWITCHYARD_LOG_FORMAT: 'readable', DATABASE_URL: 'sqlite::memory:', REDIS_URL: 'redis://gateway:redis-secret@127.0.0.1:1/2?password=query-secret' }),
      urlPattern: /^switchyard listening on (http:\/\/\S+)/m,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('names Redis on the start line without its passwords', () => {
    const startLine = gateway.stdout().split('\n').find((line) => line.startsWith('switchyard listening')) ?? '';
    expect(startLine).toContain(' | redis: redis://gateway:***@127.0.0.1:1/2?password=*** | ');
    expect(gateway.stdout()).not.toContain('redis-secret');
    expect(gateway.stdout()).not.toContain('query-secret');
  });
});
