import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway(defaultConfig({}));
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-open-access', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});

const shellTool = {
  type: 'function' as const,
  name: 'shell',
  description: 'Run a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
  strict: false,
};

describe.each(['sim-gpt', 'sim-claude', 'sim-gemini'])('Responses clients against the simulator as %s', (model) => {
  it('answers with output_text and usage', async () => {
    const response = await client.responses.create({ model, input: 'hello there', store: false });
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.output_text).toContain('hello there');
    expect(response.usage?.input_tokens).toBeGreaterThan(0);
    expect(response.usage?.output_tokens).toBeGreaterThan(0);
  });

  it('streams a function call round trip with the stream helper', async () => {
    const first = await client.responses.stream({ model, input: 'run it [tool:shell]', tools: [shellTool], store: false }).finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'shell' });
    if (call?.type !== 'function_call') throw new Error('no function call');
    expect(JSON.parse(call.arguments)).toEqual({ command: 'echo sim-tool-ran' });
    const second = await client.responses
      .stream({
        model,
        store: false,
        tools: [shellTool],
        input: [
          { role: 'user', content: 'run it [tool:shell]' },
          ...first.output.filter((item) => item.type !== 'message'),
          { type: 'function_call_output', call_id: call.call_id, output: 'sim-tool-ran\n' },
        ] as OpenAI.Responses.ResponseInput,
      })
      .finalResponse();
    expect(second.output_text).toContain('sim-tool-ran');
    expect(second.usage?.total_tokens).toBeGreaterThan(0);
  });
});

/** The ledger entry of one call; entries are written a moment after the answer is delivered. */
async function ledgerEntry(requestId: string): Promise<LedgerEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    await gateway.services.ledger.flush();
    const found = (await gateway.services.storage.ledger.list({ limit: 1_000 })).find((entry) => entry.requestId === requestId);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ledger entry for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('cache writes in Responses usage', () => {
  // `[cache:4]` makes the simulator report 4 input tokens as cache writes (Anthropic
  // cache_creation_input_tokens, read from the translated answer; Responses cache_write_tokens,
  // read from the passed-through bytes by the usage tap); Gemini has no such figure.
  const input = 'remember this long instruction for later turns [cache:4]';

  it.each([
    ['sim-claude', 4],
    ['sim-gemini', 0],
    ['sim-gpt', 4],
  ])('states cache_write_tokens from %s in the response, the stored response and the ledger', async (model, cacheWrites) => {
    const { data: response, response: raw } = await client.responses.create({ model, input, store: true }).withResponse();
    expect(response.usage?.input_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: cacheWrites });
    const stored = await client.responses.retrieve(response.id);
    expect(stored.usage?.input_tokens_details.cache_write_tokens).toBe(cacheWrites);
    const entry = await ledgerEntry(raw.headers.get('x-request-id') ?? '');
    expect(entry.cacheWrite).toBe(cacheWrites);
    expect(entry.inputUncached + entry.cacheWrite).toBe(response.usage?.input_tokens);
  });

  it.each([
    ['sim-claude', 4],
    ['sim-gemini', 0],
    ['sim-gpt', 4],
  ])('states cache_write_tokens from %s in response.completed', async (model, cacheWrites) => {
    const stream = client.responses.stream({ model, input, store: false });
    let completed: OpenAI.Responses.ResponseCompletedEvent | undefined;
    stream.on('response.completed', (event) => (completed = event));
    const response = await stream.finalResponse();
    expect(completed?.response.usage?.input_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: cacheWrites });
    expect(response.usage?.input_tokens_details.cache_write_tokens).toBe(cacheWrites);
  });
});

describe('hosted tools', () => {
  it('leaves out a hosted tool the upstream cannot serve, notes it in the log, and answers', async () => {
    const response = await client.responses.create({
      model: 'sim-claude',
      input: 'search for nothing',
      store: false,
      tools: [{ type: 'web_search' }, shellTool],
    });
    expect(response.status).toBe('completed');
    expect(response.output_text).toContain('search for nothing');
    expect(gateway.logs()).toContain('hosted tools left out');
    expect(gateway.logs()).toContain('"tools":["web_search"]');
  });
});
