import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentClients } from '../support/agent-clients.js';
import { runWithoutInput } from '../support/run-command.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';


/**
 * Claude Code from npm, pointed at the gateway, completes a Bash tool round trip through
 * /v1/messages while the simulator plays the model behind a chat-format and a Gemini upstream.
 */
let gateway: TestGateway;
let claude: string;
let scratch: string;
let ledgerEntries = 0;

beforeAll(async () => {
  claude = agentClients().claude;
  scratch = mkdtempSync(path.join(tmpdir(), 'switchyard-claude-code-'));
  gateway = await startTestGateway({
    providers: {
      'chat-sim': { type: 'openai-compatible', base_url: 'builtin:sim' },
      'gemini-sim': { type: 'gemini', base_url: 'builtin:sim' },
    },
    models: [
      { id: 'chat-upstream', routes: [{ provider: 'chat-sim', model: 'sim-chat' }] },
      { id: 'gemini-upstream', routes: [{ provider: 'gemini-sim', model: 'sim-gemini' }] },
    ],
  });
}, 600_000);

afterAll(async () => {
  await gateway?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface ClaudeResult {
  readonly result: string;
  readonly is_error: boolean;
  readonly num_turns: number;
  readonly usage: { input_tokens: number; output_tokens: number };
}

async function claudeCode(model: string, prompt: string): Promise<ClaudeResult> {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  const { stdout } = await runWithoutInput(claude, ['-p', prompt, '--allowedTools', 'Bash', '--output-format', 'json'], {
    cwd: scratch,
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      ANTHROPIC_BASE_URL: gateway.url,
      ANTHROPIC_API_KEY: 'sk-claude-code-test',
      ANTHROPIC_MODEL: model,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
      ANTHROPIC_DEFAULT_SONNET_MODEL: model,
      ANTHROPIC_DEFAULT_OPUS_MODEL: model,
      CLAUDE_CODE_SUBAGENT_MODEL: model,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
    },
  });
  return JSON.parse(stdout) as ClaudeResult;
}

describe.each(['chat-upstream', 'gemini-upstream'])('Claude Code through /v1/messages to %s', (model) => {
  it('runs the Bash tool the model asked for and answers with its output', async () => {
    const outcome = await claudeCode(model, 'list the files here [tool:Bash]');
    expect(outcome.is_error).toBe(false);
    expect(outcome.num_turns).toBe(2);
    // The simulator asked for `echo sim-tool-ran` and now quotes what the tool printed.
    expect(outcome.result).toMatch(/^Tool result: .*sim-tool-ran/);
    expect(outcome.result).not.toContain('echo');
    expect(outcome.usage.input_tokens).toBeGreaterThan(0);
    expect(outcome.usage.output_tokens).toBeGreaterThan(0);
    ledgerEntries += 2;
    const entry = await waitForLedgerEntry(gateway, ledgerEntries);
    expect(entry.model).toBe(model);
    expect(entry.endpoint).toBe('messages');
  });
});
