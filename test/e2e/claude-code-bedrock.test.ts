import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentClients } from '../support/agent-clients.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { toolLoopResponder } from '../support/fake-bedrock/tool-loop-responder.js';
import { runWithoutInput } from '../support/run-command.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

/**
 * Claude Code from npm, pointed at the gateway as at Anthropic, completes a Bash tool round trip
 * with Claude on Bedrock: its Messages calls pass through as signed InvokeModel stream calls.
 */
let gateway: TestGateway;
let bedrock: FakeBedrock;
let claude: string;
let scratch: string;

beforeAll(async () => {
  claude = agentClients().claude;
  scratch = mkdtempSync(path.join(tmpdir(), 'switchyard-claude-code-bedrock-'));
  bedrock = await startFakeBedrock();
  bedrock.respondWith(toolLoopResponder);
  gateway = await startTestGateway({
    providers: {
      bedrock: { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, access_key_id: bedrock.secret.accessKeyId, secret_access_key: bedrock.secret.secretAccessKey },
    },
    models: [{ id: 'claude-on-bedrock', routes: [{ provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' }] }],
  });
}, 600_000);

afterAll(async () => {
  await gateway?.close();
  await bedrock?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('Claude Code through /v1/messages to Claude on Bedrock', () => {
  it('runs the Bash tool the model asked for and answers with its output', async () => {
    const home = mkdtempSync(path.join(scratch, 'home-'));
    const model = 'claude-on-bedrock';
    const { stdout } = await runWithoutInput(claude, ['-p', 'print the marker', '--allowedTools', 'Bash', '--output-format', 'json'], {
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
    const outcome = JSON.parse(stdout) as { result: string; is_error: boolean; num_turns: number };
    expect(outcome.is_error).toBe(false);
    expect(bedrock.refused).toEqual([]);
    expect(outcome.num_turns).toBe(2);
    expect(outcome.result).toMatch(/^Tool result: .*bedrock-tool-ran/);
    const loopCalls = bedrock.requests.filter((request) => Array.isArray(request.invokeBody?.tools));
    expect(loopCalls.length).toBeGreaterThanOrEqual(2);
    for (const call of loopCalls) {
      expect(call.path).toBe(`/model/${encodeURIComponent('us.anthropic.claude-sonnet-4-5-20250929-v1:0')}/invoke-with-response-stream`);
      expect(call.invokeBody).toMatchObject({ anthropic_version: 'bedrock-2023-05-31' });
    }
    const entry = await waitForLedgerEntry(gateway, bedrock.requests.length);
    expect(entry).toMatchObject({ model, provider: 'bedrock', endpoint: 'messages' });
  }, 180_000);
});
