import { connect, type Socket } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureChunks, sseFromChunks } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * What one client connection may cost: oversized headers (431), headers or a body trickled byte
 * by byte (cut off after headers_timeout_ms / request_timeout_ms), idle keep-alive connections
 * (closed after keep_alive_timeout_ms); and a streamed answer longer than every one of those
 * bounds still arrives whole. Nothing refused reaches the upstream or the ledger.
 */

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let client: OpenAI;
const limits = { headers_timeout_ms: 600, request_timeout_ms: 1_200, keep_alive_timeout_ms: 500, max_header_bytes: 4_096 };
const body = JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'hello' }] });
const streamPieces = splitSse(sseFromChunks(fixtureChunks('openai/chat/openai-text.chunks.txt'), 'data', true));

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  gateway = await startTestGateway({
    server: limits,
    providers: { fake: { type: 'openai-compatible', base_url: `${upstream.url}/v1` } },
    models: [{ id: 'gpt', routes: [{ provider: 'fake', model: 'gpt-4.1-nano' }] }],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.reply({ pieces: streamPieces });
});

interface RawExchange {
  readonly socket: Socket;
  /** Everything the gateway sent, once it closed the connection. */
  readonly closed: Promise<{ text: string; afterMs: number }>;
}

function rawConnection(): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(gateway.port, '127.0.0.1', () => {
      const openedAt = Date.now();
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      const closed = new Promise<{ text: string; afterMs: number }>((done) => socket.on('close', () => done({ text, afterMs: Date.now() - openedAt })));
      resolve({ socket, closed });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `gapMs` while the socket is open. */
function trickle(socket: Socket, text: string, gapMs: number): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) return clearInterval(timer);
    socket.write(text[index++] as string);
  }, gapMs);
}

async function ledgerCount(): Promise<number> {
  await gateway.services.ledger.flush();
  return (await gateway.services.storage.ledger.list({ limit: 10_000 })).length;
}

async function expectStillServing(): Promise<void> {
  const entries = await ledgerCount();
  const completion = await client.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }], stream: true });
  let text = '';
  for await (const chunk of completion) text += chunk.choices[0]?.delta.content ?? '';
  expect(text.length).toBeGreaterThan(0);
  // Its ledger entry is written once the stream has ended; later counts must not see it arrive.
  for (let waited = 0; (await ledgerCount()) === entries && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('limits on one client', () => {
  it('answers 431 to headers larger than max_header_bytes', async () => {
    const upstreamBefore = upstream.requests.length;
    const { socket, closed } = await rawConnection();
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-padding: ${'p'.repeat(limits.max_header_bytes)}\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    expect((await closed).text).toMatch(/^HTTP\/1\.1 431 /);
    expect(upstream.requests).toHaveLength(upstreamBefore);
    await expectStillServing();
  });

  it('closes a connection whose headers trickle in past headers_timeout_ms (slow loris)', async () => {
    const entries = await ledgerCount();
    const upstreamBefore = upstream.requests.length;
    const { socket, closed } = await rawConnection();
    trickle(socket, `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`, 50);
    const { afterMs } = await closed;
    expect(afterMs).toBeGreaterThanOrEqual(limits.headers_timeout_ms - 50);
    expect(afterMs).toBeLessThan(limits.headers_timeout_ms + 1_500);
    expect(upstream.requests).toHaveLength(upstreamBefore);
    expect(await ledgerCount()).toBe(entries);
    await expectStillServing();
  });

  it('answers 408 and closes when the body trickles in past request_timeout_ms', async () => {
    const entries = await ledgerCount();
    const upstreamBefore = upstream.requests.length;
    const { socket, closed } = await rawConnection();
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    trickle(socket, body, 100);
    const { text, afterMs } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(limits.request_timeout_ms - 50);
    expect(afterMs).toBeLessThan(limits.request_timeout_ms + 1_500);
    expect(upstream.requests).toHaveLength(upstreamBefore);
    expect(await ledgerCount()).toBe(entries);
    await expectStillServing();
  });

  it('closes an idle keep-alive connection after keep_alive_timeout_ms', async () => {
    const { socket, closed } = await rawConnection();
    socket.write('GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n');
    const { text, afterMs } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(afterMs).toBeGreaterThanOrEqual(limits.keep_alive_timeout_ms - 50);
    expect(afterMs).toBeLessThan(limits.keep_alive_timeout_ms + 1_500);
  });

  it('never cuts a streamed answer that lasts longer than every one of these time-outs', async () => {
    const gapMs = Math.ceil((limits.request_timeout_ms * 2) / streamPieces.length);
    upstream.reply({ pieces: streamPieces, gapMs });
    const startedAt = Date.now();
    const stream = client.chat.completions.stream({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalChatCompletion();
    expect(Date.now() - startedAt).toBeGreaterThan(limits.request_timeout_ms * 1.5);
    expect(final.choices[0]?.finish_reason).toBe('stop');
  });
});
