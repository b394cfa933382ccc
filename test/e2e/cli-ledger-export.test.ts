import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { insertKey, parseCsv } from '../support/admin-keys.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { cliTestTimeoutMs, runSwitchyardCli } from '../support/switchyard-cli.js';

let workDirectory: string;
let databaseUrl: string;
let gateway: TestGateway;
let admin: { id: string; secret: string };
let plain: { id: string; secret: string };

const switchyard = (...args: string[]) => runSwitchyardCli(args, { databaseUrl, cwd: workDirectory });

async function adminLedger(query: string): Promise<string> {
  const response = await fetch(`${gateway.url}/admin/ledger?${query}`, { headers: { authorization: `Bearer ${admin.secret}` } });
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-ledger-cli-'));
  databaseUrl = `sqlite:${path.join(workDirectory, 'gateway.db')}`;
  gateway = await startTestGateway({ ...defaultConfig({}), database: { url: databaseUrl } });
  admin = await insertKey(gateway.services.storage, 'operator', true);
  plain = await insertKey(gateway.services.storage, 'app', false);
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: plain.secret, maxRetries: 0 });
  for (const model of ['sim-gpt', 'sim-claude', 'sim-gpt']) {
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: `exported from ${model}` }] });
  }
  await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: admin.secret, maxRetries: 0 }).chat.completions.create({ model: 'sim-gemini', messages: [{ role: 'user', content: 'x' }] });
  await gateway.services.ledger.flush();
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('switchyard ledger export', { timeout: cliTestTimeoutMs }, () => {
  it('writes every entry as JSON lines, byte for byte what /admin/ledger gives', async () => {
    const exported = await switchyard('ledger', 'export');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe(await adminLedger('format=jsonl'));
    const lines = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { request_id: string; key_id: string; model: string; cost_usd: string });
    expect(lines).toHaveLength(4);
    expect(lines.map((line) => line.model)).toEqual(['sim-gpt', 'sim-claude', 'sim-gpt', 'sim-gemini']);
    expect(lines.every((line) => /^\d+\.\d{2,9}$/.test(line.cost_usd))).toBe(true);
  });

  it('writes CSV with a header row, the same entries as the admin API', async () => {
    const exported = await switchyard('ledger', 'export', '--format', 'csv');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe(await adminLedger('format=csv'));
    const [header, ...rows] = parseCsv(exported.stdout);
    expect(header?.slice(0, 3)).toEqual(['request_id', 'key_id', 'model']);
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => row[1])).toEqual([plain.id, plain.id, plain.id, admin.id]);
  });

  it('filters by key, model and time', async () => {
    const byKey = await switchyard('ledger', 'export', '--key', admin.id);
    expect(byKey.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { model: string }).model)).toEqual(['sim-gemini']);
    const byModel = await switchyard('ledger', 'export', '--model', 'sim-gpt', '--format', 'csv');
    expect(byModel.stdout).toBe(await adminLedger('model=sim-gpt&format=csv'));
    expect(parseCsv(byModel.stdout)).toHaveLength(3);
    const past = await switchyard('ledger', 'export', '--since', '2000-01-01', '--until', '2000-01-02T00:00:00Z');
    expect(past).toMatchObject({ code: 0, stdout: '' });
    const today = new Date().toISOString().slice(0, 10);
    expect((await switchyard('ledger', 'export', '--since', today)).stdout).toBe(await adminLedger(`since=${today}`));
  });

  it('refuses bad arguments with a message and exit code 2', async () => {
    for (const args of [['ledger'], ['ledger', 'import'], ['ledger', 'export', '--format', 'xml'], ['ledger', 'export', '--since', 'last week'], ['ledger', 'export', '--since', '2025-03-02', '--until', '2025-03-01']]) {
      const refused = await switchyard(...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/^switchyard: /);
      expect(refused.stdout).toBe('');
    }
  });
});
