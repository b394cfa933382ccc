import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, ledgerEntries, serveForDrain, slowPrompt, streamsInFlight } from '../support/drain-gateway.js';

/**
 * SIGTERM on a real `switchyard serve` process (SQLite, built-in simulator) with streams in
 * flight: streams that end inside the grace complete; those still running when it is over end
 * with their format's own error event, which the real SDKs raise; every call has exactly one
 * ledger entry; `/ready` says 503 and new connections are refused meanwhile; the process exits by
 * itself soon after the grace, and at once on a second signal.
 */

let workDirectory: string;
beforeAll(() => {
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-drain-'));
});
afterAll(() => {
  rmSync(workDirectory, { recursive: true, force: true });
});

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Whether a brand-new TCP connection to `url` is accepted. */
function acceptsConnections(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    get(`${url}/health`, { agent: false }, (response) => {
      response.resume();
      resolve(true);
    }).on('error', () => resolve(false));
  });
}

/**
 * A raw connection opened before the shutdown, busy with a chat stream; `ready()` then sends
 * `GET /ready` on it (pipelined, answered once the stream ends). Resolves to the raw bytes of both
 * answers once the server closes the connection.
 */
function busyConnection(url: string, prompt: string): { ready(): void; received: Promise<string> } {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ model: 'sim-gpt', stream: true, messages: [{ role: 'user', content: prompt }] });
  const socket = connect(Number(port), hostname, () => {
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  return {
    ready: () => socket.write(`GET /ready HTTP/1.1\r\nhost: ${hostname}\r\n\r\n`),
    received: new Promise((resolve, reject) => {
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    }),
  };
}

async function chatStream(client: OpenAI, prompt: string): Promise<{ text: string; error?: string }> {
  let text = '';
  try {
    const stream = await client.chat.completions.create({ model: 'sim-gpt', stream: true, messages: [{ role: 'user', content: prompt }] });
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return { text };
  } catch (error) {
    return { text, error: String(error) };
  }
}

async function responsesStream(client: OpenAI, prompt: string): Promise<{ types: string[]; error?: string }> {
  const types: string[] = [];
  try {
    const stream = await client.responses.create({ model: 'sim-claude', stream: true, store: false, input: prompt });
    for await (const event of stream) types.push(event.type);
    return { types };
  } catch (error) {
    return { types, error: String(error) };
  }
}

async function messagesStream(client: Anthropic, prompt: string): Promise<{ types: string[]; error?: string }> {
  const types: string[] = [];
  try {
    const stream = await client.messages.create({ model: 'sim-gemini', max_tokens: 500, stream: true, messages: [{ role: 'user', content: prompt }] });
    for await (const event of stream) types.push(event.type);
    return { types };
  } catch (error) {
    return { types, error: String(error) };
  }
}

describe('SIGTERM with streams in flight', () => {
  it('lets 20 streams that end inside the grace complete, answers 503 on /ready meanwhile and refuses new connections', async () => {
    const databaseUrl = `sqlite:${path.join(workDirectory, 'complete.db')}`;
    const gateway = await serveForDrain({ workDirectory, databaseUrl, graceSeconds: 30, name: 'complete' });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const streams = Array.from({ length: 20 }, () => chatStream(client, slowPrompt(20)));
    const busy = busyConnection(gateway.url, slowPrompt(30));
    await streamsInFlight(gateway.url, 21);
    const signalledAt = Date.now();
    gateway.process.kill('SIGTERM');
    const exited = exitOf(gateway, signalledAt);
    await sleep(300);
    busy.ready();
    expect(await acceptsConnections(gateway.url)).toBe(false);
    const results = await Promise.all(streams);
    for (const result of results) {
      expect(result.error).toBeUndefined();
      expect(result.text.split(' ').length).toBeGreaterThanOrEqual(20);
    }
    // The request that came on an existing connection during the drain: 503, and the connection closes.
    const raw = await busy.received;
    expect(raw).toContain('data: [DONE]');
    const readyAnswer = raw.slice(raw.lastIndexOf('HTTP/1.1 '));
    expect(readyAnswer).toMatch(/^HTTP\/1\.1 503/);
    expect(readyAnswer).toMatch(/connection: close/i);
    expect(readyAnswer).toMatch(/shutting down/);
    const exit = await exited;
    expect(exit.code).toBe(0);
    // The streams took about 2 s; the process then exits by itself.
    expect(exit.afterMs).toBeLessThan(6_000);
    const entries = await ledgerEntries(databaseUrl);
    expect(entries).toHaveLength(21);
    expect(new Set(entries.map((entry) => entry.requestId)).size).toBe(21);
    expect(entries.every((entry) => entry.status === 200)).toBe(true);
  });

  it('ends what outlasts a 2 s grace with each format’s error event, one ledger entry each, and exits soon after', async () => {
    const databaseUrl = `sqlite:${path.join(workDirectory, 'cut.db')}`;
    const gateway = await serveForDrain({ workDirectory, databaseUrl, graceSeconds: 2, name: 'cut' });
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
    const prompt = slowPrompt(80);
    const chats = Array.from({ length: 3 }, () => chatStream(openai, prompt));
    const responses = Array.from({ length: 3 }, () => responsesStream(openai, prompt));
    const messages = Array.from({ length: 3 }, () => messagesStream(anthropic, prompt));
    // A whole answer still awaited from the upstream when the grace is over: a 503 in the client's shape.
    const unanswered = openai.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'take your time [delay:8000]' }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await streamsInFlight(gateway.url, 9);
    const signalledAt = Date.now();
    gateway.process.kill('SIGTERM');
    const exited = exitOf(gateway, signalledAt);
    for (const chat of await Promise.all(chats)) {
      expect(chat.text.length).toBeGreaterThan(0);
      expect(chat.error).toMatch(/shutting down/);
    }
    for (const answer of await Promise.all(responses)) {
      expect(answer.types[0]).toBe('response.created');
      expect(answer.types).not.toContain('response.completed');
      expect(answer.error).toMatch(/shutting down/);
    }
    for (const answer of await Promise.all(messages)) {
      expect(answer.types[0]).toBe('message_start');
      expect(answer.types).not.toContain('message_stop');
      expect(answer.error).toMatch(/shutting down/);
    }
    const refused = await unanswered;
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toMatch(/shutting down/);
    const cutAfterMs = Date.now() - signalledAt;
    expect(cutAfterMs).toBeGreaterThanOrEqual(1_900);
    const exit = await exited;
    expect(exit.code).toBe(0);
    expect(exit.afterMs).toBeLessThan(2_000 + 4_000);
    const entries = await ledgerEntries(databaseUrl);
    expect(entries).toHaveLength(10);
    expect(new Set(entries.map((entry) => entry.requestId)).size).toBe(10);
    expect(entries.map((entry) => entry.endpoint).sort()).toEqual(['chat', 'chat', 'chat', 'chat', 'messages', 'messages', 'messages', 'responses', 'responses', 'responses']);
    // The unanswered call is on the record with the status its client got, and charged nothing.
    expect(entries.filter((entry) => entry.status === 503).map((entry) => entry.costNanoUsd)).toEqual([0n]);
  });

  it('exits at once on a second signal', async () => {
    const databaseUrl = `sqlite:${path.join(workDirectory, 'twice.db')}`;
    const gateway = await serveForDrain({ workDirectory, databaseUrl, graceSeconds: 30, name: 'twice' });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = chatStream(client, slowPrompt(100));
    await streamsInFlight(gateway.url, 1);
    gateway.process.kill('SIGTERM');
    await sleep(300);
    expect(gateway.process.exitCode).toBeNull();
    const secondAt = Date.now();
    gateway.process.kill('SIGTERM');
    const exit = await exitOf(gateway, secondAt);
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    // Far inside the 30 s grace and the 10 s stream (the margin is for a loaded test machine).
    expect(exit.afterMs).toBeLessThan(2_000);
    expect((await stream).error).toBeDefined();
  });
});
