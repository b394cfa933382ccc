import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { cliTestTimeoutMs, runSwitchyardCli } from '../support/switchyard-cli.js';

let workDirectory: string;
let databaseUrl: string;

const switchyard = (...args: string[]) => runSwitchyardCli(args, { databaseUrl, cwd: workDirectory });

beforeAll(() => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-cli-'));
  databaseUrl = `sqlite:${path.join(workDirectory, 'gateway.db')}`;
});
afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

describe('switchyard keys and usage', { timeout: cliTestTimeoutMs }, () => {
  let gateway: TestGateway;
  afterAll(async () => gateway?.close());

  it('creates a scoped key once, lists it without the secret, and the gateway honours it until revoked', async () => {
    const created = await switchyard('keys', 'create', '--name', 'ci', '--models', 'sim', '--endpoints', 'chat,models', '--budget-usd', '12.50', '--json');
    expect(created.code).toBe(0);
    const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
    expect(key).toMatch(/^sy-[A-Za-z0-9_-]{43}$/);

    const listed = await switchyard('keys', 'list', '--json');
    const keys = JSON.parse(listed.stdout) as { id: string; scopes: { models: string[] }; budget_usd: string }[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id, scopes: { models: ['sim-gpt'] }, budget_usd: '12.50' });
    expect(listed.stdout).not.toContain(key);

    const migrated = await switchyard('migrate');
    expect(migrated.stdout).toContain('up to date');

    gateway = await startTestGateway({ ...defaultConfig({}), database: { url: databaseUrl } });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'metered' }] });
    expect(completion.choices[0]?.message.content).toContain('metered');
    const outside = await client.chat.completions.create({ model: 'sim-claude', messages: [{ role: 'user', content: 'x' }] }).catch((error: unknown) => error);
    expect((outside as InstanceType<typeof OpenAI.APIError>).status).toBe(403);
    await gateway.services.ledger.flush();

    const usage = await switchyard('usage', '--key', id, '--json');
    const rows = JSON.parse(usage.stdout) as { model: string; requests: number; input_tokens: number; images: number; video_seconds: number; cost_usd: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'sim-gpt', requests: 1, images: 0, video_seconds: 0 });
    const table = await switchyard('usage', '--key', id);
    expect(table.stdout).toContain('images=0  video_seconds=0');
    expect(rows[0]!.input_tokens).toBeGreaterThan(0);

    expect((await switchyard('keys', 'revoke', id)).code).toBe(0);
    expect((await switchyard('keys', 'revoke', id)).code).toBe(1);
    await gateway.close();
    gateway = await startTestGateway({ ...defaultConfig({}), database: { url: databaseUrl } });
    const revoked = await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 })
      .chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect((revoked as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
  });

  it('creates keys with budgets, limits, an expiry and --admin; lists them; audits them with no actor', async () => {
    const created = await switchyard(
      'keys', 'create', '--name', 'limited', '--endpoints', 'chat', '--budget-usd', '100', '--daily-budget-usd', '2.5',
      '--monthly-budget-usd', '0.000000001', '--rpm', '60', '--tpm', '90000', '--concurrency', '3', '--expires', '2099-06-30', '--json',
    );
    expect(created.code).toBe(0);
    const limited = JSON.parse(created.stdout) as { id: string; key: string };
    expect(limited).toMatchObject({ name: 'limited', admin: false, budget_usd: '100.00', rpm: 60, expires_at: '2099-06-30T00:00:00.000Z' });
    expect(limited.key).toMatch(/^sy-/);
    const admin = JSON.parse((await switchyard('keys', 'create', '--name', 'root', '--admin', '--json')).stdout) as { id: string; key: string };

    const listed = JSON.parse((await switchyard('keys', 'list', '--json')).stdout) as Record<string, unknown>[];
    expect(listed.find((key) => key.id === limited.id)).toMatchObject({
      admin: false,
      scopes: { endpoints: ['chat'], models: null },
      budget_usd: '100.00',
      daily_budget_usd: '2.50',
      monthly_budget_usd: '0.000000001',
      rpm: 60,
      tpm: 90000,
      concurrency: 3,
      expires_at: '2099-06-30T00:00:00.000Z',
      last_used_at: null,
      status: 'active',
    });
    expect(listed.find((key) => key.id === admin.id)).toMatchObject({ admin: true, scopes: { endpoints: null, models: null } });
    const table = (await switchyard('keys', 'list')).stdout;
    expect(table).toContain(`${limited.id}  `);
    expect(table).toContain('rpm=60  tpm=90000  concurrency=3  budget_usd=100.00  daily_budget_usd=2.50  monthly_budget_usd=0.000000001  expires=2099-06-30T00:00:00.000Z');
    expect(table).toMatch(new RegExp(`${admin.id} .* active admin `));

    expect((await switchyard('keys', 'revoke', limited.id)).code).toBe(0);
    const reader = await startTestGateway({ ...defaultConfig({}), database: { url: databaseUrl } });
    type AuditEntries = { data: { action: string; target_id: string; actor_key_id: string | null; details: Record<string, unknown> }[] };
    let entries: AuditEntries['data'];
    try {
      const audit = await fetch(`${reader.url}/admin/audit`, { headers: { authorization: `Bearer ${admin.key}` } });
      expect(audit.status).toBe(200);
      entries = ((await audit.json()) as AuditEntries).data;
    } finally {
      await reader.close();
    }
    expect(entries.filter((entry) => entry.target_id === limited.id).map((entry) => [entry.action, entry.actor_key_id])).toEqual([
      ['key.revoke', null],
      ['key.create', null],
    ]);
    expect(entries.find((entry) => entry.target_id === limited.id && entry.action === 'key.create')?.details).toMatchObject({ rpm: 60, daily_budget_usd: '2.50' });
    expect(JSON.stringify(entries)).not.toContain(limited.key);
  });

  it('refuses bad arguments with a message and a non-zero exit', async () => {
    const unknownModel = await switchyard('keys', 'create', '--name', 'x', '--models', 'nope');
    expect(unknownModel.code).not.toBe(0);
    expect(unknownModel.stderr).toContain("unknown model 'nope'");
    const badEndpoint = await switchyard('keys', 'create', '--name', 'x', '--endpoints', 'everything');
    expect(badEndpoint.stderr).toContain("unknown family 'everything'");
    const noName = await switchyard('keys', 'create');
    expect(noName.stderr).toContain('--name');
    for (const [flags, message] of [
      [['--rpm', '0'], '--rpm: expected a positive whole number'],
      [['--tpm', 'lots'], '--tpm: expected a positive whole number'],
      [['--concurrency', '1.5'], '--concurrency: expected a positive whole number'],
      [['--daily-budget-usd=-1'], "--daily-budget-usd: expected a decimal amount in USD such as \"25\" or \"12.50\", at most 9 decimals, got '-1'"],
      [['--monthly-budget-usd', '0.0000000001'], '--monthly-budget-usd: expected a decimal amount'],
      [['--expires', '2020-01-01'], '--expires: 2020-01-01 is not in the future'],
      [['--expires', '31/12/2099'], "--expires: expected a date YYYY-MM-DD, got '31/12/2099'"],
      [['--admin', '--models', 'sim'], '--models/--endpoints: admin keys may use every endpoint and model'],
      [['--colour', 'red'], "switchyard: Unknown option '--colour'"],
    ] as const) {
      const refused = await switchyard('keys', 'create', '--name', 'x', ...flags);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(message);
    }
  });
});
