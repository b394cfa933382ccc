import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { closedPortUrl, startScriptedUpstream, type AnswerReply, type ReceivedRequest, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { sseEvent } from '../support/sse.js';

/**
 * An upstream's error text is its own: a provider or a proxy before it may echo the credential it
 * was sent and its own host. Neither may reach a client (in any client format, from any kind of
 * upstream) nor the gateway's logs; an upstream refusing the gateway's credential is answered with
 * the gateway's own message; a connection that fails logs no host or address.
 */

const credentials = {
  openai: 'sk-proj-openaiSECRET0123456789abcdef',
  compatible: 'compat-SECRET-0123456789',
  anthropic: 'sk-ant-api03-anthropicSECRET0123456789',
  gemini: 'AIzaSyGeminiSECRET0123456789abcdefghi',
} as const;
type UpstreamKind = keyof typeof credentials;
const kinds = Object.keys(credentials) as UpstreamKind[];

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let secret: string;
let upstreamHost: string;
let refusedHost: string;
let status = 400;
/** How a stream's error event is cut into writes: whole, split inside the credential, without its closing blank line, or sharing a write with output. */
let errorEventShape: 'whole' | 'split' | 'split-character' | 'unterminated' | 'shared' | 'vllm' = 'whole';

/** The credential the request carried, echoed back with the upstream's address, as some servers do. */
function leakyMessage(request: ReceivedRequest): string {
  const sent = sentCredential(request);
  return `Invalid value for 'temperature' (request with key ${sent} to http://${upstreamHost}/v1 failed on ${upstreamHost}; upstream localhost; réessayez)`;
}

/** Model output that holds a URL: it is the model's, and reaches the client as it was written. */
const modelOutput = 'Docs at https://example.com/guide';

/** A stream that starts, then carries the upstream's error event (chat's `data: {error}`, Messages' `event: error`). */
function streamWithErrorEvent(request: ReceivedRequest, message: string): AnswerReply {
  const contentType = 'text/event-stream';
  let first: string;
  let errorEvent: string;
  if (request.path.includes('/images/generations')) {
    const partial = { type: 'image_generation.partial_image', b64_json: 'AAAA', created_at: 1, size: '1024x1024', quality: 'low', output_format: 'png', background: 'opaque', partial_image_index: 0 };
    first = sseEvent({ event: 'image_generation.partial_image', data: partial });
    errorEvent = sseEvent({ event: 'error', data: { error: { message, type: 'server_error' } } });
  } else if (request.path.includes('/messages')) {
    const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } };
    first = sseEvent({ event: 'message_start', data: start });
    errorEvent = sseEvent({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message } } });
  } else {
    const chunk = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: modelOutput }, finish_reason: null }] };
    first = sseEvent({ data: chunk });
    // vLLM's error object has no `error` member: `{"object":"error", "message": …}`.
    const payload = errorEventShape === 'vllm' ? { object: 'error', message, type: 'BadRequestError', param: null, code: 400 } : { error: { message, type: 'server_error' } };
    errorEvent = sseEvent({ data: payload });
  }
  return { contentType, pieces: cutErrorEvent(first, errorEvent, sentCredential(request)), gapMs: 20 };
}

/** The writes of a stream whose second event is an error, cut as `errorEventShape` says. */
function cutErrorEvent(first: string, errorEvent: string, credential: string): (string | Buffer)[] {
  if (errorEventShape === 'split-character') {
    // Cut inside the two bytes of `é`: each write alone holds half a character.
    const bytes = Buffer.from(errorEvent);
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    return [first, bytes.subarray(0, cut), bytes.subarray(cut)];
  }
  if (errorEventShape === 'shared') return [first + errorEvent];
  if (errorEventShape === 'unterminated') return [first, errorEvent.replace(/\n\n$/, '')];
  if (errorEventShape === 'whole' || errorEventShape === 'vllm') return [first, errorEvent];
  // The credential straddles the two writes: neither half matches a pattern on its own.
  const cut = errorEvent.indexOf(credential) + Math.floor(credential.length / 2);
  return [first, errorEvent.slice(0, cut), errorEvent.slice(cut)];
}

function sentCredential(request: ReceivedRequest): string {
  return String(request.headers.authorization ?? request.headers['x-api-key'] ?? request.headers['x-goog-api-key'] ?? '').replace(/^Bearer /, '');
}

function errorReply(request: ReceivedRequest): AnswerReply {
  const message = leakyMessage(request);
  if (/"stream"\s*:\s*true/.test(request.body)) return streamWithErrorEvent(request, message);
  if (request.path.includes('/messages')) return { status, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }) };
  if (request.path.includes(':generateContent') || request.path.includes(':streamGenerateContent')) {
    return { status, body: JSON.stringify({ error: { code: status, message, status: 'INVALID_ARGUMENT' } }) };
  }
  return { status, body: JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } }) };
}

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.reply(errorReply);
  // Addressed by name, so the name itself is what must not leak.
  upstreamHost = upstream.url.replace('http://127.0.0.1', 'localhost').replace(/^http:\/\//, '');
  const base = `http://${upstreamHost}`;
  const refused = await closedPortUrl();
  refusedHost = refused.replace(/^http:\/\//, '');
  gateway = await startTestGateway({
    routing: { attempts_per_route: 1, timeout_ms: 5_000 },
    providers: {
      openai: { type: 'openai', base_url: `${base}/v1`, api_key: credentials.openai },
      compatible: { type: 'openai-compatible', base_url: `${base}/v1`, api_key: credentials.compatible },
      anthropic: { type: 'anthropic', base_url: base, api_key: credentials.anthropic },
      gemini: { type: 'gemini', base_url: base, api_key: credentials.gemini },
      unresolvable: { type: 'openai-compatible', base_url: 'http://internal-model-host.invalid/v1', api_key: credentials.compatible },
      refused: { type: 'openai-compatible', base_url: `${refused}/v1`, api_key: credentials.compatible },
    },
    models: [
      ...[...kinds, 'unresolvable', 'refused'].map((kind) => ({ id: `via-${kind}`, routes: [{ provider: kind, model: 'upstream-model' }] })),
      { id: 'image-via-openai', output_modality: 'image', routes: [{ provider: 'openai', model: 'gpt-image-1' }] },
    ],
  });
  secret = (await insertKey(gateway.services.storage, 'client', false)).secret;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

beforeEach(() => {
  status = 400;
  errorEventShape = 'whole';
});

/** Asks `model` in one client format and returns the client's error (status and message). */
async function clientError(format: 'chat' | 'responses' | 'messages', model: string): Promise<{ status: number | undefined; message: string }> {
  const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
  const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
  const call =
    format === 'chat'
      ? openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      : format === 'responses'
        ? openai.responses.create({ model, input: 'hi', store: false })
        : anthropic.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  const error = (await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { status?: number; message?: string; error?: unknown } | undefined;
  expect(error).toBeDefined();
  return { status: error?.status, message: `${error?.message ?? ''} ${JSON.stringify(error?.error ?? null)}` };
}

function expectNoSecretOrHost(text: string): void {
  for (const credential of Object.values(credentials)) expect(text).not.toContain(credential);
  expect(text).not.toContain(upstreamHost);
  expect(text).not.toContain('localhost');
  expect(text).not.toContain(upstreamHost.split(':')[1] as string);
}

describe("an upstream error echoing the gateway's credential and the upstream's host", () => {
  for (const format of ['chat', 'responses', 'messages'] as const) {
    for (const kind of kinds) {
      it(`reaches a ${format} client from a ${kind} upstream without either, its meaning kept`, async () => {
        const before = upstream.requests.length;
        const answer = await clientError(format, `via-${kind}`);
        expect(upstream.requests.length).toBe(before + 1);
        expect(answer.status).toBe(400);
        expect(answer.message).toContain("Invalid value for 'temperature'");
        expectNoSecretOrHost(answer.message);
      });
    }
  }

  it('is answered 502 with its text left out when the upstream refuses the credential (401)', async () => {
    status = 401;
    for (const kind of kinds) {
      const answer = await clientError('chat', `via-${kind}`);
      expect(answer.status).toBe(502);
      expect(answer.message).toContain(`'${kind}'`);
      expect(answer.message).not.toContain('temperature');
      expectNoSecretOrHost(answer.message);
    }
  });

  it('leaves neither in the logs, for 4xx, 401 and 5xx answers alike', async () => {
    for (const answerStatus of [400, 401, 403, 500, 503]) {
      status = answerStatus;
      for (const kind of kinds) await clientError('responses', `via-${kind}`);
    }
    expectNoSecretOrHost(gateway.logs());
  });
});

describe('an error event an upstream sends inside a stream passed through', () => {
  /** What chat, Messages and Images clients make of the stream: the output before the error, and the error. */
  async function clientsRead(): Promise<{ chat: string; messages: string; image: string; chatOutput: string }> {
    const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    let chatOutput = '';
    const read = async (stream: AsyncIterable<unknown>): Promise<string> => {
      try {
        for await (const event of stream) {
          const content = (event as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;
          if (content !== undefined) chatOutput += content;
        }
      } catch (error) {
        return `${(error as Error).message} ${JSON.stringify((error as { error?: unknown }).error ?? null)}`;
      }
      return 'no error';
    };
    const chat = await read(await openai.chat.completions.create({ model: 'via-openai', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    const messages = await read(await anthropic.messages.create({ model: 'via-anthropic', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    const image = await read(await openai.images.generate({ model: 'image-via-openai', prompt: 'a lighthouse', stream: true, partial_images: 1, size: '1024x1024', quality: 'low' }));
    return { chat, messages, image, chatOutput };
  }

  /** The bytes each endpoint relays, read raw: nothing of the credential or the host in any of them. */
  async function rawStreams(): Promise<string[]> {
    const post = async (path: string, body: unknown): Promise<string> => {
      const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) });
      return response.text();
    };
    return [
      await post('/v1/chat/completions', { model: 'via-openai', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      await post('/v1/messages', { model: 'via-anthropic', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      await post('/v1/images/generations', { model: 'image-via-openai', prompt: 'a lighthouse', stream: true, partial_images: 1, size: '1024x1024', quality: 'low' }),
    ];
  }

  it('reaches chat, Messages and Images clients without the credential or the host', async () => {
    const read = await clientsRead();
    for (const text of [read.chat, read.messages, read.image]) {
      expect(text).toContain("Invalid value for 'temperature'");
      expectNoSecretOrHost(text);
    }
  });

  it('is scrubbed whole when it arrives in two writes with the credential cut between them', async () => {
    errorEventShape = 'split';
    const read = await clientsRead();
    for (const text of [read.chat, read.messages, read.image]) {
      expect(text).toContain("Invalid value for 'temperature'");
      expectNoSecretOrHost(text);
      for (const credential of Object.values(credentials)) expect(text).not.toContain(credential.slice(0, 10));
    }
    for (const raw of await rawStreams()) {
      expect(raw).toContain("Invalid value for 'temperature'");
      expectNoSecretOrHost(raw);
      for (const credential of Object.values(credentials)) expect(raw).not.toContain(credential.slice(0, 10));
    }
  });

  it('keeps a character cut between two writes whole', async () => {
    errorEventShape = 'split-character';
    const read = await clientsRead();
    for (const text of [read.chat, read.messages, read.image]) {
      expect(text).toContain('réessayez');
      expectNoSecretOrHost(text);
    }
  });

  it('is scrubbed when it ends the stream without its closing blank line', async () => {
    errorEventShape = 'unterminated';
    for (const raw of await rawStreams()) {
      expect(raw).toContain("Invalid value for 'temperature'");
      expectNoSecretOrHost(raw);
    }
  });

  it("is scrubbed in vLLM's shape, and ends the stream without the gateway adding an error of its own", async () => {
    errorEventShape = 'vllm';
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'via-compatible', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const raw = await response.text();
    expect(raw).toContain('"object":"error"');
    expect(raw).toContain("Invalid value for 'temperature'");
    expectNoSecretOrHost(raw);
    expect(raw).not.toContain('before it was complete');
  });

  it('leaves the model output sent in the same write as it was', async () => {
    errorEventShape = 'shared';
    const read = await clientsRead();
    expect(read.chatOutput).toBe(modelOutput);
    expect(read.chat).toContain("Invalid value for 'temperature'");
    expectNoSecretOrHost(read.chat);
  });
});

describe('a connection that fails', () => {
  it('logs no host or address, whether the name does not resolve or the connection is refused', async () => {
    const unresolvable = await clientError('chat', 'via-unresolvable');
    expect(unresolvable.status).toBe(502);
    const refused = await clientError('messages', 'via-refused');
    expect(refused.status).toBe(502);
    const logs = gateway.logs();
    expect(logs).toContain('upstream_connect_failed');
    for (const text of [logs, unresolvable.message, refused.message]) {
      expect(text).not.toContain('internal-model-host');
      expect(text).not.toContain(refusedHost);
      expect(text).not.toContain(`:${refusedHost.split(':')[1] ?? ''}`);
    }
  });
});
