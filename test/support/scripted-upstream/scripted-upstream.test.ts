import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sse } from '../sse.js';
import { pause, startScriptedUpstream, type ScriptedUpstream } from './index.js';

/**
 * The fake upstream every end-to-end suite stands on: what it records and how it answers must be
 * exactly what a test asserts on, so it is checked here with plain HTTP calls.
 */

const started: ScriptedUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((upstream) => upstream.close()));
});

async function upstreamWith(...args: Parameters<typeof startScriptedUpstream>): Promise<ScriptedUpstream> {
  const upstream = await startScriptedUpstream(...args);
  started.push(upstream);
  return upstream;
}

/** One POST, read to the end; `reads` are the body pieces as they arrived, `failed` the socket error if any. */
function post(url: string, body: string): Promise<{ status: number; reads: string[]; failed: string | undefined }> {
  return new Promise((resolve) => {
    const reads: string[] = [];
    const outgoing = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-marker': 'm1' } }, (answer) => {
      answer.on('data', (chunk: Buffer) => reads.push(chunk.toString('utf8')));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, reads, failed: undefined }));
      answer.on('error', (error: NodeJS.ErrnoException) => resolve({ status: answer.statusCode ?? 0, reads, failed: error.code ?? error.message }));
      answer.on('close', () => {
        if (!answer.complete) resolve({ status: answer.statusCode ?? 0, reads, failed: 'closed before the end' });
      });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, reads, failed: error.code ?? error.message }));
    outgoing.end(body);
  });
}

describe('the scripted upstream', () => {
  it('records each request whole and what it answered, and answers "no reply set" until told', async () => {
    const upstream = await upstreamWith();
    const answer = await post(`${upstream.url}/v1/chat/completions?x=1`, '{"a":1}');
    expect(answer.status).toBe(500);
    expect(upstream.requests).toHaveLength(1);
    const [received] = upstream.requests;
    expect(received).toMatchObject({ method: 'POST', path: '/v1/chat/completions?x=1', body: '{"a":1}' });
    expect(received!.headers['x-marker']).toBe('m1');
    expect(received!.rawBody.equals(Buffer.from('{"a":1}'))).toBe(true);
    expect(received!.answer).toMatchObject({ status: 500, complete: true, closedEarlyAt: undefined, body: '{"error":{"message":"no reply set"}}' });
    expect(upstream.calls()).toBe(1);
    expect(upstream.completed()).toBe(1);
  });

  it('gives scripted replies one per call, in order, then the standing reply', async () => {
    const upstream = await upstreamWith({ reply: { body: 'standing' } });
    upstream.script({ status: 429, body: 'first' }, (request) => ({ body: `second saw ${request.body}` }));
    const answers = [await post(upstream.url, 'a'), await post(upstream.url, 'b'), await post(upstream.url, 'c')];
    expect(answers.map((answer) => [answer.status, answer.reads.join('')])).toEqual([
      [429, 'first'],
      [200, 'second saw b'],
      [200, 'standing'],
    ]);
    expect(upstream.calls((request) => request.body !== 'a')).toBe(2);
  });

  it('sends pieces as separate writes, paced, so a stream arrives event by event', async () => {
    const upstream = await upstreamWith({ reply: { pieces: [sse([{ data: { n: 1 } }]), pause(150), sse([{ data: '[DONE]' }])] } });
    const before = Date.now();
    const answer = await post(upstream.url, '{}');
    expect(Date.now() - before).toBeGreaterThanOrEqual(140);
    expect(answer.reads).toEqual(['data: {"n":1}\n\n', 'data: [DONE]\n\n']);
    expect(upstream.requests[0]!.answer).toMatchObject({ contentType: 'text/event-stream', body: 'data: {"n":1}\n\ndata: [DONE]\n\n', complete: true });
  });

  it('resets the connection before any byte, or after the pieces, and notes the early close', async () => {
    const upstream = await upstreamWith();
    upstream.script({ reset: true }, { pieces: ['data: {"n":1}\n\n'], afterPieces: 'reset' });
    const before = await post(upstream.url, '{}');
    expect(before).toMatchObject({ status: 0, failed: 'ECONNRESET' });
    const after = await post(upstream.url, '{}');
    expect(after.reads.join('')).toBe('data: {"n":1}\n\n');
    expect(after.failed).toBeDefined();
    // The upstream's side of a reset is told a moment after the caller's.
    await vi.waitFor(() => expect(upstream.closedEarly()).toBe(2));
    expect(upstream.completed()).toBe(0);
  });

  it('holds an answer open until the caller leaves', async () => {
    const upstream = await upstreamWith({ reply: { delayMs: Infinity } });
    const controller = new AbortController();
    const call = fetch(upstream.url, { method: 'POST', body: '{}', signal: controller.signal }).catch((error: unknown) => error);
    while (upstream.calls() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstream.requests[0]!.answer.endedAt).toBeUndefined();
    controller.abort();
    await call;
    while (upstream.requests[0]!.answer.endedAt === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstream.requests[0]!.answer).toMatchObject({ status: undefined, complete: false });
    expect(upstream.closedEarly()).toBe(1);
  });

  it('relays a call to another server and records the bytes that came back', async () => {
    const vendor = await upstreamWith({ reply: (request) => ({ body: `vendor saw ${request.path} ${request.body}` }) });
    const relay = await upstreamWith({ reply: { relayTo: vendor.url } });
    const answer = await post(`${relay.url}/v1/messages`, 'hello');
    expect(answer.reads.join('')).toBe('vendor saw /v1/messages hello');
    expect(relay.requests[0]!.answer).toMatchObject({ status: 200, body: 'vendor saw /v1/messages hello', complete: true });
    expect(vendor.requests[0]!.headers['x-marker']).toBe('m1');
  });
});
