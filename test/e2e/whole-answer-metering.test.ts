import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * A whole answer's usage is known when the answer is made, so its ledger entry is written then and
 * there, passed through or translated: the writer is never told of an entry still to come (it is
 * for a stream's, written when the stream ends), and the cost header agrees with the entry.
 */
describe('metering a whole answer', () => {
  let gateway: TestGateway;
  let client: OpenAI;
  const recorded: LedgerEntry[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway(defaultConfig({}));
    gateway.services.ledger.onRecord((entry) => recorded.push(entry));
    client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-open-access', maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
  });

  for (const [route, model] of [
    ['passed through (chat to an OpenAI upstream)', 'sim-gpt'],
    ['translated (chat to an Anthropic upstream)', 'sim-claude'],
  ] as const) {
    it(`records the entry as the answer is made when ${route}`, async () => {
      const awaiting = vi.spyOn(gateway.services.ledger, 'awaiting');
      try {
        const { data, response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello there' }] }).withResponse();
        expect(awaiting).not.toHaveBeenCalled();
        const entry = recorded.find((candidate) => candidate.requestId === response.headers.get('x-request-id'));
        expect(entry).toMatchObject({ model, status: 200, inputUncached: data.usage?.prompt_tokens, output: data.usage?.completion_tokens, usageEstimated: false });
        expect(response.headers.get('x-request-cost-usd')).toMatch(/^0\.\d+$/);
      } finally {
        awaiting.mockRestore();
      }
    });
  }

  it("tells the writer of a stream's entry still to come, and records it when the stream ends", async () => {
    const awaiting = vi.spyOn(gateway.services.ledger, 'awaiting');
    try {
      const { data: stream, response } = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello there' }], stream: true }).withResponse();
      for await (const chunk of stream) void chunk;
      expect(awaiting).toHaveBeenCalledTimes(1);
      await awaiting.mock.results[0]?.value;
      expect(recorded.some((entry) => entry.requestId === response.headers.get('x-request-id'))).toBe(true);
    } finally {
      awaiting.mockRestore();
    }
  });
});
