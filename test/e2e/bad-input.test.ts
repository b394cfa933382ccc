import { request as httpRequest, type IncomingMessage } from 'node:http';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFixture } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * Requests the gateway must refuse before any upstream sees them: each answer has the exact
 * status, the OpenAI error shape with the request id in header and body, and the fake upstream
 * behind the only model records no request.
 */

const bodyLimit = 1024;
const model = 'fake-gpt';
const messages = [{ role: 'user', content: 'hello' }];

let upstream: ScriptedUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.reply({ body: readFixture('openai/chat/openai-text.json') });
  gateway = await startTestGateway({
    server: { body_limit_bytes: bodyLimit },
    providers: { fake: { type: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'upstream-secret' } },
    models: [{ id: model, routes: [{ provider: 'fake', model: 'gpt-4.1-nano' }] }],
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

interface ExpectedError {
  readonly type: string;
  readonly code: string;
  readonly param: string | null;
}

/** The OpenAI error body, checked field by field, with the request id matching the header. */
function expectErrorBody(body: unknown, requestId: string | null, expected: ExpectedError): void {
  expect(requestId).toMatch(/^req_[0-9a-f]{24}$/);
  expect(body).toEqual({
    error: { message: expect.any(String), type: expected.type, param: expected.param, code: expected.code, request_id: requestId },
  });
  expect((body as { error: { message: string } }).error.message.length).toBeGreaterThan(0);
}

async function expectErrorResponse(response: Response, status: number, expected: ExpectedError): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expectErrorBody(body, response.headers.get('x-request-id'), expected);
  return body;
}

/** The APIError the official client throws, checked the same way. */
async function expectClientError(call: Promise<unknown>, status: number, expected: ExpectedError): Promise<APIError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(APIError);
  const apiError = error as APIError;
  expect(apiError.status).toBe(status);
  expectErrorBody({ error: apiError.error }, apiError.requestID ?? null, expected);
  expect(apiError.code).toBe(expected.code);
  expect(apiError.param).toBe(expected.param);
  expect(apiError.type).toBe(expected.type);
  return apiError;
}

function expectNothingUpstream(): void {
  expect(upstream.requests).toHaveLength(0);
}

const invalid = (code: string, param: string | null): ExpectedError => ({ type: 'invalid_request_error', code, param });

describe.each(['/v1', ''])('POST %s/chat/completions with bad input', (prefix) => {
  const path = `${prefix}/chat/completions`;
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ baseURL: `${gateway.url}${prefix}`, apiKey: 'unused-open-access', maxRetries: 0 });
  });

  const postRaw = (body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Response> =>
    fetch(`${gateway.url}${path}`, { method: 'POST', headers, body });

  it('passes a valid request through to the upstream (the control for every refusal below)', async () => {
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]?.message.content).toContain('Galaxy Day');
    expect(upstream.requests).toHaveLength(1);
  });

  it('refuses malformed JSON with 400 invalid_json', async () => {
    await expectErrorResponse(await postRaw('{"model": "fake-gpt", "messages": ['), 400, invalid('invalid_json', null));
    expectNothingUpstream();
  });

  it.each([
    ['a JSON array', '[{"model":"fake-gpt"}]'],
    ['a JSON string', '"fake-gpt"'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['an empty body', ''],
  ])('refuses a body that is %s with 400', async (_name, text) => {
    await expectErrorResponse(await postRaw(text), 400, invalid(text === '' ? 'invalid_json' : 'invalid_request', null));
    expectNothingUpstream();
  });

  it('refuses a missing model with 400 naming param model', async () => {
    await expectClientError(client.chat.completions.create({ messages } as never), 400, invalid('missing_field', 'model'));
    expectNothingUpstream();
  });

  it('refuses missing messages with 400 naming param messages', async () => {
    await expectClientError(client.chat.completions.create({ model } as never), 400, invalid('missing_field', 'messages'));
    expectNothingUpstream();
  });

  it('refuses a message without content with 400 naming its path', async () => {
    await expectClientError(
      client.chat.completions.create({ model, messages: [{ role: 'user' }] } as never),
      400,
      invalid('missing_field', 'messages[0].content'),
    );
    expectNothingUpstream();
  });

  it('answers a streaming request for an unknown model with a JSON 404, not a stream', async () => {
    await expectClientError(
      client.chat.completions.create({ model: 'no-such-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      404,
      invalid('model_not_found', 'model'),
    );
    expectNothingUpstream();
  });

  it('refuses an unknown model with 404 model_not_found naming param model', async () => {
    const error = await expectClientError(
      client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
      404,
      invalid('model_not_found', 'model'),
    );
    expect(error.message).toContain('no-such-model');
    expectNothingUpstream();
  });

  it.each([
    ['messages is not an array', { messages: 'hello' }, 'messages'],
    ['messages is empty', { messages: [] }, 'messages'],
    ['temperature is a string', { temperature: '0.5' }, 'temperature'],
    ['stream is a number', { stream: 1 }, 'stream'],
    ['max_tokens is negative', { max_tokens: -5 }, 'max_tokens'],
    ['max_tokens is a string', { max_tokens: '100' }, 'max_tokens'],
    ['tools is not an array', { tools: { type: 'function' } }, 'tools'],
    ['a message role is unknown', { messages: [{ role: 'wizard', content: 'hi' }] }, 'messages[0].role'],
    ['model is a number', { model: 42 }, 'model'],
  ])('refuses a body where %s with 400 naming the param', async (_name, override, param) => {
    const body = { model, messages, ...override };
    await expectClientError(client.chat.completions.create(body as never), 400, invalid('invalid_field', param));
    expectNothingUpstream();
  });

  it('refuses a declared content-length over the limit with 413 before the body is sent', async () => {
    const result = await streamBody({ path, declaredLength: bodyLimit * 64, chunk: 'x'.repeat(256), chunkCount: 256, gapMs: 20 });
    expect(result.status).toBe(413);
    expect(result.headers['connection']).toBe('close');
    expectErrorBody(JSON.parse(result.body), (result.headers['x-request-id'] as string | undefined) ?? null, invalid('body_too_large', null));
    // Refused from the header alone: the answer came before (nearly) any of the body was written.
    expect(result.chunksSentBeforeResponse).toBeLessThan(8);
    expectNothingUpstream();
  });

  it('refuses a chunked body that grows over the limit with 413 without reading it all', async () => {
    const result = await streamBody({ path, chunk: 'x'.repeat(256), chunkCount: 256, gapMs: 20 });
    expect(result.status).toBe(413);
    expectErrorBody(JSON.parse(result.body), (result.headers['x-request-id'] as string | undefined) ?? null, invalid('body_too_large', null));
    // 1024 bytes is exceeded by the fifth 256-byte chunk; the answer must not wait for all 256.
    expect(result.chunksSentBeforeResponse).toBeGreaterThanOrEqual(4);
    expect(result.chunksSentBeforeResponse).toBeLessThan(32);
    expectNothingUpstream();
  });

  it('accepts a body just under the limit', async () => {
    const padding = 'p'.repeat(bodyLimit - 120);
    const text = JSON.stringify({ model, messages: [{ role: 'user', content: padding }] });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(bodyLimit);
    const response = await postRaw(text);
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });

  it('refuses text/plain with 415', async () => {
    const text = JSON.stringify({ model, messages });
    await expectErrorResponse(await postRaw(text, { 'content-type': 'text/plain' }), 415, invalid('unsupported_media_type', null));
    expectNothingUpstream();
  });

  it('refuses a body without content-type with 415', async () => {
    // A byte body makes fetch send no content-type at all.
    const bytes = new TextEncoder().encode(JSON.stringify({ model, messages }));
    const response = await postRaw(bytes, {});
    await expectErrorResponse(response, 415, invalid('unsupported_media_type', null));
    expectNothingUpstream();
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await postRaw(JSON.stringify({ model, messages }), { 'content-type': 'application/json; charset=utf-8' });
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });

  it.each(['GET', 'PUT', 'DELETE'])('refuses %s with 405 and an allow header', async (method) => {
    const response = await fetch(`${gateway.url}${path}`, { method });
    expect(response.headers.get('allow')).toBe('POST');
    await expectErrorResponse(response, 405, invalid('method_not_allowed', null));
    expectNothingUpstream();
  });

  it('answers an unknown path under the same prefix with 404 in the OpenAI shape', async () => {
    const response = await fetch(`${gateway.url}${prefix}/chat/completion`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await expectErrorResponse(response, 404, invalid('not_found', null));
    expectNothingUpstream();
  });
});

describe('unknown paths', () => {
  it.each(['/v1/nope', '/nope', '/v2/chat/completions', '/v1/chat/completions/extra'])('GET %s is a 404 in the OpenAI shape', async (path) => {
    await expectErrorResponse(await fetch(`${gateway.url}${path}`), 404, invalid('not_found', null));
  });

  it('the official client gets a NotFoundError with the request id for an unknown path', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-open-access', maxRetries: 0 });
    await expectClientError(client.get('/no/such/thing'), 404, invalid('not_found', null));
  });
});

describe('the unprefixed and /v1 paths', () => {
  it.each([
    ['malformed JSON', '{', 'application/json'],
    ['an array body', '[]', 'application/json'],
    ['an unknown model', JSON.stringify({ model: 'ghost', messages }), 'application/json'],
    ['a bad temperature', JSON.stringify({ model, messages, temperature: 'warm' }), 'application/json'],
    ['a text/plain body', '{}', 'text/plain'],
  ])('answer %s identically', async (_name, body, contentType) => {
    const answers = await Promise.all(
      ['/v1/chat/completions', '/chat/completions'].map(async (path) => {
        const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
        const json = (await response.json()) as { error: Record<string, unknown> };
        const { request_id: _requestId, ...error } = json.error;
        return { status: response.status, error };
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]?.status).toBeGreaterThanOrEqual(400);
    expectNothingUpstream();
  });
});

interface StreamedResult {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** How many chunks had been written when the response headers arrived. */
  readonly chunksSentBeforeResponse: number;
  readonly chunksTotal: number;
}

interface StreamPlan {
  readonly path: string;
  /** Sent as content-length when given; otherwise the body goes chunked. */
  readonly declaredLength?: number;
  readonly chunk: string;
  readonly chunkCount: number;
  readonly gapMs: number;
}

/**
 * Sends a body slowly, one chunk every `gapMs`, and stops writing as soon as the response
 * arrives, so the count of chunks written tells whether the gateway answered early.
 */
function streamBody(plan: StreamPlan): Promise<StreamedResult> {
  const url = new URL(plan.path, gateway.url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let sentAtResponse = -1;
    let timer: NodeJS.Timeout | undefined;
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (plan.declaredLength !== undefined) headers['content-length'] = plan.declaredLength;
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (response) => {
      sentAtResponse = sent;
      if (timer !== undefined) clearTimeout(timer);
      const pieces: Buffer[] = [];
      response.on('data', (piece: Buffer) => pieces.push(piece));
      response.on('end', () => {
        outgoing.destroy();
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(pieces).toString('utf8'),
          chunksSentBeforeResponse: sentAtResponse,
          chunksTotal: plan.chunkCount,
        });
      });
      response.on('error', reject);
    });
    // The gateway closes the connection on a refused body: writes after that may fail, which is expected.
    outgoing.on('error', (error) => {
      if (sentAtResponse < 0) reject(error);
    });
    const writeNext = (): void => {
      if (sentAtResponse >= 0 || outgoing.destroyed) return;
      if (sent >= plan.chunkCount) {
        outgoing.end();
        return;
      }
      outgoing.write(sent === 0 ? `{"model":"fake-gpt","messages":[{"role":"user","content":"${plan.chunk}` : plan.chunk);
      sent++;
      timer = setTimeout(writeNext, plan.gapMs);
    };
    outgoing.flushHeaders();
    writeNext();
  });
}
