import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { cliTestTimeoutMs, runSwitchyardCli } from '../support/switchyard-cli.js';

/**
 * `switchyard usage` as an operator uses it: keys are named by the name they were given (or by
 * id), every line shows the key's name beside its id, and `--json` uses the admin API's
 * snake_case field names.
 */

let workDirectory: string;
let databaseUrl: string;
let gateway: TestGateway;
let teamA: { id: string; key: string };
let teamB: { id: string; key: string };

const switchyard = (...args: string[]) => runSwitchyardCli(args, { databaseUrl, cwd: workDirectory });

async function createKey(name: string): Promise<{ id: string; key: string }> {
  const created = await switchyard('keys', 'create', '--name', name, '--json');
  expect(created.code, created.stderr).toBe(0);
  return JSON.parse(created.stdout) as { id: string; key: string };
}

beforeAll(async () => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-cli-usage-'));
  databaseUrl = `sqlite:${path.join(workDirectory, 'gateway.db')}`;
  teamA = await createKey('team-a');
  teamB = await createKey('team-b');
  gateway = await startTestGateway({ ...defaultConfig({}), database: { url: databaseUrl } });
  for (const [team, calls] of [[teamA, 2], [teamB, 1]] as const) {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: team.key, maxRetries: 0 });
    for (let index = 0; index < calls; index++) await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: `call ${index}` }] });
  }
  await gateway.services.ledger.flush();
}, cliTestTimeoutMs);
afterAll(async () => {
  await gateway?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('switchyard usage', { timeout: cliTestTimeoutMs }, () => {
  it('--key accepts a key\u2019s name and shows only that key, by name and id', async () => {
    const byName = await switchyard('usage', '--key', 'team-a');
    expect(byName.code, byName.stderr).toBe(0);
    const lines = byName.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('team-a');
    expect(lines[0]).toContain(teamA.id);
    expect(lines[0]).toContain('requests=2');
    expect(byName.stdout).not.toContain('team-b');

    const byId = await switchyard('usage', '--key', teamA.id);
    expect(byId.stdout).toBe(byName.stdout);
  });

  it('--key with a name no key has fails with a message naming it', async () => {
    const unknown = await switchyard('usage', '--key', 'team-z');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('team-z');
    expect(unknown.stdout).toBe('');
  });

  it('without --key shows every key by name', async () => {
    const all = await switchyard('usage');
    expect(all.stdout).toContain('team-a');
    expect(all.stdout).toContain('team-b');
  });

  it('--json answers the admin API\u2019s snake_case names, the key\u2019s name included', async () => {
    const json = await switchyard('usage', '--key', 'team-b', '--json');
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? {};
    expect(row).toMatchObject({ key_id: teamB.id, key_name: 'team-b', model: 'sim-gpt', requests: 1, images: 0, video_seconds: 0 });
    expect(Number(row.input_tokens)).toBeGreaterThan(0);
    expect(typeof row.cost_usd).toBe('string');
    for (const field of Object.keys(row)) expect(field, field).toMatch(/^[a-z0-9_]+$/);
  });
});
