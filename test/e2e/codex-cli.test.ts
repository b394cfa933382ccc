import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentClients } from '../support/agent-clients.js';
import { runWithoutInput } from '../support/run-command.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Codex CLI from npm, pointed at the gateway with `wire_api = "responses"`, completes a shell tool
 * round trip through /v1/responses while the simulator plays the model behind an Anthropic and a
 * chat-format upstream.
 */
let gateway: TestGateway;
let codex: string;
let scratch: string;
let ledgerEntries = 0;

beforeAll(async () => {
  codex = agentClients().codex;
  // Codex refuses to set up its helper binaries under the system temp directory.
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  scratch = mkdtempSync(path.join(root, '.tmp', 'codex-'));
  gateway = await startTestGateway({
    providers: {
      'anthropic-sim': { type: 'anthropic', base_url: 'builtin:sim' },
      'chat-sim': { type: 'openai-compatible', base_url: 'builtin:sim' },
      // Azure's classic form: Responses passed through to /openai/responses?api-version=…
      'azure-sim': { type: 'azure', base_url: 'builtin:sim', api_version: '2025-04-01-preview', api_key: 'azure-sim-key' },
    },
    models: [
      { id: 'anthropic-upstream', routes: [{ provider: 'anthropic-sim', model: 'sim-claude' }] },
      { id: 'chat-upstream', routes: [{ provider: 'chat-sim', model: 'sim-chat' }] },
      { id: 'azure-upstream', routes: [{ provider: 'azure-sim', model: 'gpt-sim' }] },
    ],
  });
}, 600_000);

afterAll(async () => {
  await gateway?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function codexHome(model: string): string {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  writeFileSync(
    path.join(home, 'config.toml'),
    [
      `model = "${model}"`,
      'model_provider = "gateway"',
      'check_for_update_on_startup = false',
      '[analytics]',
      'enabled = false',
      '[feedback]',
      'enabled = false',
      '[features]',
      'plugins = false',
      'apps = false',
      'remote_plugin = false',
      '[model_providers.gateway]',
      'name = "Switchyard"',
      `base_url = "${gateway.url}/v1"`,
      'env_key = "SWITCHYARD_API_KEY"',
      'wire_api = "responses"',
      'stream_max_retries = 0',
      'request_max_retries = 0',
      '',
    ].join('\n'),
  );
  return home;
}

describe.each(['anthropic-upstream', 'chat-upstream', 'azure-upstream'])('Codex CLI through /v1/responses to %s', (model) => {
  it('runs the shell command the model asked for and reports its output', async () => {
    const home = codexHome(model);
    const { stdout } = await runWithoutInput(codex, ['exec', '--skip-git-repo-check', 'run a command [tool:exec_command]'], {
      cwd: scratch,
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: home, SWITCHYARD_API_KEY: 'sk-codex-test' },
    });
    // Codex ran `echo sim-tool-ran`, sent the output back, and the final answer quotes it.
    expect(stdout).toContain('Process exited with code 0');
    expect(stdout).toMatch(/Tool result: [\s\S]*Output:\s*sim-tool-ran/);
    ledgerEntries += 2;
    const entry = await waitForLedgerEntry(gateway, ledgerEntries);
    expect(entry.endpoint).toBe('responses');
    expect(entry.model).toBe(model);
    expect(entry.inputUncached + entry.cacheRead).toBeGreaterThan(0);
    expect(entry.output).toBeGreaterThan(0);
  });
});
