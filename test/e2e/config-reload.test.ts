import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

/**
 * Reload without restart: SIGHUP (or, with `server.watch_config`, a saved file) puts new
 * providers, models and prices in force; a file that fails validation is refused with the field
 * named and the running catalog kept; a call in flight finishes on the catalog it started with.
 */

interface ModelEntry {
  readonly id: string;
  readonly name?: string;
  readonly effectiveFrom?: string;
}

function configText(models: readonly ModelEntry[], server: string = ''): string {
  const lines = [server, 'providers:', '  sim: { type: openai, base_url: "builtin:sim" }', 'models:'];
  for (const model of models) {
    lines.push(`  - id: ${model.id}`);
    lines.push(`    routes: [{ provider: sim, model: ${model.name ?? 'sim-gpt'} }]`);
    lines.push(`    price: { input_per_mtok: "1.00", output_per_mtok: "2.00", effective_from: "${model.effectiveFrom ?? '2026-01-01'}" }`);
  }
  return `${lines.join('\n')}\n`;
}

interface LogRecord {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

function logRecords(gateway: SpawnedGateway): LogRecord[] {
  return gateway
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogRecord);
}

/** Polls until `found` returns something, or fails after a few seconds. */
async function eventually<T>(what: string, found: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The `count`th reload record (1-based) once it has been logged. */
function reloadRecord(gateway: SpawnedGateway, count: number): Promise<LogRecord> {
  return eventually(`reload log line ${count}`, () => logRecords(gateway).filter((record) => record.msg.startsWith('config reload'))[count - 1]);
}

async function listedModels(gateway: SpawnedGateway): Promise<{ id: string; created: number }[]> {
  const response = await fetch(`${gateway.url}/v1/models`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: string; created: number }[] }).data;
}

async function chat(gateway: SpawnedGateway, model: string): Promise<string | null | undefined> {
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
  const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello after a reload' }] });
  return completion.choices[0]?.message.content;
}

let workDirectory: string;

beforeAll(() => {
  if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('run `npm run build` first (npm test does)');
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-reload-'));
});
afterAll(() => {
  rmSync(workDirectory, { recursive: true, force: true });
});

function startServing(file: string): Promise<SpawnedGateway> {
  return spawnGateway(process.execPath, [bin, 'serve', '--config', file, '--port', '0'], {
    cwd: workDirectory,
    env: zeroConfigEnvironment(),
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
}

describe('SIGHUP', () => {
  let gateway: SpawnedGateway;
  let file: string;

  beforeAll(async () => {
    file = path.join(workDirectory, 'signal.yaml');
    writeFileSync(file, configText([{ id: 'first-model' }]));
    gateway = await startServing(file);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('serves the models of the file it started with', async () => {
    expect((await listedModels(gateway)).map((model) => model.id)).toEqual(['first-model']);
  });

  it('reloads a changed file: a model added, a price changed', async () => {
    writeFileSync(file, configText([{ id: 'first-model', effectiveFrom: '2026-02-01' }, { id: 'second-model', name: 'sim-other' }]));
    gateway.process.kill('SIGHUP');
    const models = await eventually('the added model', async () => {
      const listed = await listedModels(gateway);
      return listed.some((model) => model.id === 'second-model') ? listed : undefined;
    });
    expect(models.map((model) => model.id)).toEqual(['first-model', 'second-model']);
    // `created` is when the operator's price took effect: the changed price is in force.
    expect(models.find((model) => model.id === 'first-model')?.created).toBe(Date.UTC(2026, 1, 1) / 1000);
    const pricing = await fetch(`${gateway.url}/v1/models/pricing?model=first-model`);
    expect(((await pricing.json()) as { data: { effective_from: string }[] }).data[0]?.effective_from).toBe('2026-02-01');
    expect(await chat(gateway, 'second-model')).toContain('hello after a reload');
    expect(await reloadRecord(gateway, 1)).toMatchObject({ msg: 'config reloaded: 2 models', models: 2, trigger: 'SIGHUP' });
    expect(gateway.process.exitCode).toBeNull();
  });

  it('refuses a file with an unknown key, naming it, and keeps serving the catalog it had', async () => {
    const good = configText([{ id: 'first-model', effectiveFrom: '2026-02-01' }, { id: 'second-model', name: 'sim-other' }]);
    writeFileSync(file, good.replace('  - id: second-model\n', '  - id: second-model\n    colour: blue\n'));
    gateway.process.kill('SIGHUP');
    const refusal = await reloadRecord(gateway, 2);
    expect(refusal.level).toBe(50);
    expect(refusal.msg).toContain('config reload refused');
    expect(refusal.msg).toContain('models[1]');
    expect(refusal.msg).toContain('colour');
    expect((await listedModels(gateway)).map((model) => model.id)).toEqual(['first-model', 'second-model']);
    const pricing = await fetch(`${gateway.url}/v1/models/pricing?model=first-model`);
    expect(((await pricing.json()) as { data: { effective_from: string }[] }).data[0]?.effective_from).toBe('2026-02-01');
    expect(await chat(gateway, 'second-model')).toContain('hello after a reload');
  });

  it('refuses a file that is not YAML and keeps serving', async () => {
    writeFileSync(file, 'models: [ { id: broken\n');
    gateway.process.kill('SIGHUP');
    const refusal = await reloadRecord(gateway, 3);
    expect(refusal.msg).toContain('config reload refused');
    expect(refusal.msg).toContain('not valid YAML');
    expect((await listedModels(gateway)).map((model) => model.id)).toEqual(['first-model', 'second-model']);
    expect(await chat(gateway, 'first-model')).toContain('hello after a reload');
  });

  it('lets a stream in flight finish on the catalog it started with', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'first-model',
      stream: true,
      messages: [{ role: 'user', content: 'a slow one [words:12] [pace:150]' }],
    });
    let text = '';
    let finishReason: string | null | undefined;
    const models = new Set<string>();
    let reloaded = false;
    for await (const chunk of stream) {
      models.add(chunk.model);
      text += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      if (!reloaded && text !== '') {
        reloaded = true;
        // The model this stream runs on is removed while it runs.
        writeFileSync(file, configText([{ id: 'third-model' }]));
        gateway.process.kill('SIGHUP');
        expect(await reloadRecord(gateway, 4)).toMatchObject({ msg: 'config reloaded: 1 model' });
      }
    }
    expect(reloaded).toBe(true);
    expect(finishReason).toBe('stop');
    expect(text.trim().split(/\s+/)).toHaveLength(12);
    // Passed through, the chunks name the upstream model of the route the call started on.
    expect([...models]).toEqual(['sim-gpt']);
    expect((await listedModels(gateway)).map((model) => model.id)).toEqual(['third-model']);
    const gone = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'first-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(gone.status).toBe(404);
  });

  it('still stops cleanly on SIGTERM', async () => {
    expect(await gateway.stop()).toBe(0);
  });
});

describe('server.watch_config', () => {
  let gateway: SpawnedGateway;
  let file: string;

  beforeAll(async () => {
    file = path.join(workDirectory, 'watched.yaml');
    writeFileSync(file, configText([{ id: 'watched-model' }], 'server: { watch_config: true }'));
    gateway = await startServing(file);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('reloads a saved file without a signal', async () => {
    expect((await listedModels(gateway)).map((model) => model.id)).toEqual(['watched-model']);
    writeFileSync(file, configText([{ id: 'watched-model' }, { id: 'saved-model' }], 'server: { watch_config: true }'));
    await eventually('the saved model', async () => ((await listedModels(gateway)).some((model) => model.id === 'saved-model') ? true : undefined));
    expect(await reloadRecord(gateway, 1)).toMatchObject({ msg: 'config reloaded: 2 models', trigger: 'file change' });
    expect(await chat(gateway, 'saved-model')).toContain('hello after a reload');
  });

  it('reloads a file an editor replaced by renaming a new one over it', async () => {
    const temporary = path.join(workDirectory, '.watched.yaml.tmp');
    writeFileSync(temporary, configText([{ id: 'renamed-model' }], 'server: { watch_config: true }'));
    renameSync(temporary, file);
    await eventually('the renamed-in model', async () => ((await listedModels(gateway)).map((model) => model.id).join() === 'renamed-model' ? true : undefined));
    expect(await reloadRecord(gateway, 2)).toMatchObject({ msg: 'config reloaded: 1 model', trigger: 'file change' });
  });

  it('refuses a saved file that fails validation, naming the field, and keeps serving', async () => {
    writeFileSync(file, configText([{ id: 'renamed-model' }], 'server: { watch_config: true }').replace('provider: sim', 'provider: ghost'));
    const refusal = await reloadRecord(gateway, 3);
    expect(refusal.msg).toContain('models[0].routes[0].provider');
    expect(refusal.msg).toContain('ghost');
    expect((await listedModels(gateway)).map((model) => model.id)).toEqual(['renamed-model']);
    expect(await chat(gateway, 'renamed-model')).toContain('hello after a reload');
  });
});
