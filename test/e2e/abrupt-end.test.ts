import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureChunks, sseFromChunks } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

/**
 * An upstream that stops in the middle of a tool call: every client format gets its own error
 * event after what had been sent, open blocks are closed, and the call is still metered.
 */
let upstream: ScriptedUpstream;
let chatUpstream: ScriptedUpstream;
let gateway: TestGateway;
let ledgerEntries = 0;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  chatUpstream = await startScriptedUpstream();
  gateway = await startTestGateway({
    providers: {
      anthropic: { type: 'anthropic', base_url: upstream.url, api_key: 'k' },
      compatible: { type: 'openai-compatible', base_url: `${chatUpstream.url}/v1` },
    },
    models: [
      { id: 'claude', routes: [{ provider: 'anthropic', model: 'claude-upstream' }] },
      { id: 'deepseek', routes: [{ provider: 'compatible', model: 'deepseek-reasoner' }] },
    ],
  });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
  await chatUpstream.close();
});

function replayCutShort(): void {
  const chunks = fixtureChunks('anthropic/messages/anthropic-json-tool.1.chunks.txt');
  // Keep message_start, the tool block's start and a few argument fragments; then the connection ends.
  upstream.reply({ pieces: splitSse(sseFromChunks(chunks.slice(0, 6), 'named')) });
}

const prompt = 'give me json';

describe('an upstream stream that ends abruptly', () => {
  it('ends a chat stream with an error the SDK raises', async () => {
    replayCutShort();
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: 'claude', messages: [{ role: 'user', content: prompt }] });
    await expect(stream.finalChatCompletion()).rejects.toThrow(/ended|early|incomplete|stream/i);
  });

  async function messagesEvents(model: string): Promise<string[]> {
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: prompt }] }),
    });
    return [...(await response.text()).matchAll(/^event: (\S+)$/gm)].map((match) => match[1] as string);
  }

  it('ends a passed-through Messages stream with the error event the SDK raises', async () => {
    replayCutShort();
    const events = await messagesEvents('claude');
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('error');
    expect(events).not.toContain('message_stop');
    replayCutShort();
    const client = new Anthropic({ baseURL: gateway.url, apiKey: 'k', maxRetries: 0 });
    const stream = client.messages.stream({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: prompt }] });
    await expect(stream.finalMessage()).rejects.toThrow(/ended the stream before it was complete/);
  });

  it('closes the open block of a translated Messages stream before its error event', async () => {
    const chunks = fixtureChunks('openai-compatible/chat/deepseek-tool-call.chunks.txt');
    chatUpstream.reply({ pieces: splitSse(sseFromChunks(chunks.slice(0, 30), 'data')) });
    const events = await messagesEvents('deepseek');
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('error');
    expect(events.filter((name) => name === 'content_block_start').length).toBeGreaterThan(0);
    expect(events.filter((name) => name === 'content_block_start').length).toBe(events.filter((name) => name === 'content_block_stop').length);
    expect(events).not.toContain('message_stop');
  });

  it('ends a Responses stream with error and response.failed', async () => {
    replayCutShort();
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude', stream: true, store: false, input: prompt }),
    });
    const text = await response.text();
    const types = [...text.matchAll(/"type":"(response\.[a-z_.]+|error)"/g)].map((match) => match[1]);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('error');
    expect(types.at(-1)).toBe('response.failed');
    expect(types).not.toContain('response.completed');
  });

  it('still writes a ledger entry for the interrupted calls', async () => {
    ledgerEntries += 5;
    const entry = await waitForLedgerEntry(gateway, ledgerEntries);
    expect(entry.inputUncached).toBeGreaterThan(0);
  });
});
