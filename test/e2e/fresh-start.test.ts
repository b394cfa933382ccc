import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

/**
 * The README's promise: the built gateway serves with no configuration at all (SQLite under
 * ./data, the simulator behind the default models) and a chat completion works.
 */
describe('a fresh start with no configuration', () => {
  let workDirectory: string;
  let gatewayProcess: ChildProcess;
  let url: string;
  let stdout = '';

  beforeAll(async () => {
    if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('run `npm run build` first (npm test does)');
    workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-fresh-'));
    const environment = { ...process.env };
    for (const name of ['SWITCHYARD_CONFIG', 'SWITCHYARD_LOG_FORMAT', 'DATABASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY']) delete environment[name];
    gatewayProcess = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: workDirectory, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 20_000);
      gatewayProcess.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        stdout += chunk.toString('utf8');
        const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      gatewayProcess.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      gatewayProcess.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${output}`)));
    });
  });

  afterAll(async () => {
    if (gatewayProcess.exitCode === null) {
      const exited = new Promise((resolve) => gatewayProcess.once('exit', resolve));
      gatewayProcess.kill('SIGTERM');
      await exited;
    }
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('serves a chat completion from a simulator model', async () => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello from a fresh clone' }] });
    expect(completion.choices[0]?.message.content).toContain('hello from a fresh clone');
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(expect.arrayContaining(['sim-gpt', 'sim-claude', 'sim-gemini']));
  });

  it('answers health checks, with and without a body', async () => {
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const head = await fetch(`${url}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('keeps its database under ./data and shuts down cleanly on SIGTERM', async () => {
    expect(existsSync(path.join(workDirectory, 'data', 'switchyard.db'))).toBe(true);
    const exited = new Promise<number | null>((resolve) => gatewayProcess.once('exit', (code) => resolve(code)));
    gatewayProcess.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('logs JSON lines, one record per line, when stdout is not a terminal', () => {
    const lines = stdout.trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line) as { level: number; time: number; msg: string });
    expect(records.map((record) => record.msg)).toEqual(expect.arrayContaining(['switchyard listening', 'shutting down: draining calls in flight', 'stopped']));
    for (const record of records) expect(record).toEqual(expect.objectContaining({ level: expect.any(Number), time: expect.any(Number) }));
  });
});
