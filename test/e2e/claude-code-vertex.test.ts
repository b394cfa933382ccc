import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentClients } from '../support/agent-clients.js';
import { startFakeVertex, type FakeVertex, type VertexModelCall } from '../support/fake-vertex.js';
import { runWithoutInput } from '../support/run-command.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { vertexClaudeToolLoop, vertexThinkingSignature } from '../support/vertex-claude-tool-loop.js';

/**
 * Claude Code from npm, pointed at the gateway as at Anthropic, completes a Bash tool round trip
 * with thinking on Claude served by Vertex AI: its streamed Messages calls pass through to
 * `streamRawPredict` with Vertex's `anthropic_version`, the model in the URL and an OAuth2 bearer
 * the fake token endpoint issued for the service account, and its signed thinking comes back intact.
 */
let gateway: TestGateway;
let vertex: FakeVertex;
let claude: string;
let scratch: string;

const vertexModel = 'claude-sonnet-4-5@20250929';

beforeAll(async () => {
  claude = agentClients().claude;
  scratch = mkdtempSync(path.join(tmpdir(), 'switchyard-claude-code-vertex-'));
  vertex = await startFakeVertex({ project: 'claude-code-project', location: 'us-east5' });
  vertex.answer(vertexClaudeToolLoop);
  gateway = await startTestGateway({
    providers: {
      vertex: { type: 'vertex', project: vertex.project, location: vertex.location, credentials_file: vertex.account.keyFile, base_url: vertex.url },
    },
    // No price in the config: Claude on Vertex is priced from the dataset's row for it.
    models: [{ id: 'claude-on-vertex', routes: [{ provider: 'vertex', model: vertexModel }] }],
  });
}, 600_000);

afterAll(async () => {
  await gateway?.close();
  await vertex?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const blocksOf = (message: unknown): { type?: string; signature?: string }[] => {
  const content = (message as { content?: unknown }).content;
  return Array.isArray(content) ? (content as { type?: string; signature?: string }[]) : [];
};

describe('Claude Code through /v1/messages to Claude on Vertex AI', () => {
  it('thinks, runs the Bash tool the model asked for over a stream, and answers with its output, on the ledger', async () => {
    const home = mkdtempSync(path.join(scratch, 'home-'));
    const model = 'claude-on-vertex';
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
        MAX_THINKING_TOKENS: '2048',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
      },
    });
    const outcome = JSON.parse(stdout) as { result: string; is_error: boolean; num_turns: number };
    expect(outcome.is_error).toBe(false);
    expect(outcome.num_turns).toBe(2);
    expect(outcome.result).toMatch(/^Tool result: .*vertex-tool-ran/);

    // Every call Vertex got bore a token its endpoint issued for the service account's grant.
    expect(vertex.upstream.requests.map((request) => request.answer.status).filter((status) => status !== 200)).toEqual([]);
    for (const call of vertex.accepted) expect(vertex.tokens.issued).toContain(String(call.request.headers.authorization).replace(/^Bearer /, ''));

    const loopCalls = vertex.accepted.filter((call: VertexModelCall) => Array.isArray(call.body.tools));
    expect(loopCalls).toHaveLength(2);
    for (const call of loopCalls) {
      expect(call.request.path).toBe(`/v1/projects/claude-code-project/locations/us-east5/publishers/anthropic/models/${vertexModel}:streamRawPredict`);
      expect(call.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true, thinking: { type: expect.stringMatching(/^(?:enabled|adaptive)$/) } });
      expect(call.body).not.toHaveProperty('model');
    }
    // The second turn hands back the first turn's thinking with its signature, as Claude requires.
    const handedBack = (loopCalls[1]!.body.messages as unknown[]).flatMap(blocksOf).filter((block) => block.type === 'thinking');
    expect(handedBack.map((block) => block.signature)).toEqual([vertexThinkingSignature]);

    await gateway.services.ledger.flush();
    const entries = await gateway.services.storage.ledger.list({ limit: 1_000 });
    const metered = vertex.accepted.filter((call) => call.model !== 'count-tokens').length;
    expect(entries).toHaveLength(metered);
    const loopEntries = entries.filter((entry) => entry.output === 15 && entry.inputUncached === 40);
    expect(loopEntries.length).toBeGreaterThanOrEqual(2);
    for (const entry of entries) {
      expect(entry).toMatchObject({ model, provider: 'vertex', endpoint: 'messages', status: 200 });
      expect(entry.costNanoUsd).toBeGreaterThan(0n);
    }
  }, 180_000);

  // Claude Code 2.1 in print mode asks for no token count; a Messages client's count goes to Vertex's own.
  it("counts a Messages client's tokens at Vertex's count-tokens, the model in the body and Vertex's version beside it", async () => {
    const client = new Anthropic({ baseURL: gateway.url, apiKey: 'sk-claude-code-test', maxRetries: 0 });
    const before = vertex.accepted.length;
    const counted = await client.messages.countTokens({ model: 'claude-on-vertex', messages: [{ role: 'user', content: 'print the marker' }] });
    expect(counted.input_tokens).toBe(42);
    const [count] = vertex.accepted.slice(before);
    expect(count?.request.path).toBe('/v1/projects/claude-code-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict');
    expect(count?.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', model: vertexModel });
  });
});
