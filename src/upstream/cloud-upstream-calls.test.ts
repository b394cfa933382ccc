import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptContext } from '../call/attempt-context.js';
import { ClientScope } from '../call/client-scope.js';
import { messagesFormat } from '../formats/messages/index.js';
import type { CallToAuthorize, ProviderAdapter, TextGeneration, UpstreamEventReaderFactory, UpstreamStreamEvent, UpstreamTarget } from '../providers/provider-adapter.js';
import { adapterForKind } from '../providers/registry.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../../test/support/scripted-upstream/index.js';
import { passthroughCall } from '../passthrough/passthrough-call.js';
import { translatedCall } from '../translation/translated-call.js';
import { chatFormat } from '../formats/chat/index.js';
import type { IrRequest } from '../ir/index.js';

/**
 * A same-format upstream shaped like Claude on a cloud platform: the model in the URL (another
 * path for streams), a body without `model` and `stream` but with a platform version member, a
 * signature over the final call, and a stream in a binary framing instead of SSE.
 */
let upstream: ScriptedUpstream;
const authorized: CallToAuthorize[] = [];

beforeAll(async () => {
  upstream = await startScriptedUpstream();
});
afterAll(() => upstream.close());

/** 4-byte big-endian length, then `{event, data}` as JSON: a stand-in for the AWS event stream. */
const framedReader: UpstreamEventReaderFactory = (onEvent) => {
  let held = Buffer.alloc(0);
  return {
    push(chunk) {
      held = Buffer.concat([held, chunk]);
      while (held.length >= 4 && held.length >= 4 + held.readUInt32BE(0)) {
        onEvent(JSON.parse(held.subarray(4, 4 + held.readUInt32BE(0)).toString('utf8')) as UpstreamStreamEvent);
        held = held.subarray(4 + held.readUInt32BE(0));
      }
    },
    flush() {},
  };
};
const frame = (event: string, data: unknown): Buffer => {
  const json = Buffer.from(JSON.stringify({ event, data: JSON.stringify(data) }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([length, json]);
};

const anthropic = adapterForKind('anthropic') as ProviderAdapter & { text: TextGeneration };
const cloudText: TextGeneration = {
  ...anthropic.text,
  passthroughUrl: (_format, target, stream) => `${target.baseUrl}/model/${target.model}/${stream ? 'invoke-with-response-stream' : 'invoke'}`,
  passthroughBody: (_format, prepared) => {
    const { model: _model, stream: _stream, ...rest } = JSON.parse(prepared) as Record<string, unknown>;
    return JSON.stringify({ anthropic_version: 'platform-2023-05-31', ...rest });
  },
  createEventReader: framedReader,
};
const cloudAdapter: ProviderAdapter = {
  ...anthropic,
  upstreamHeaders: () => ({ 'content-type': 'application/json' }),
  async authorize(call) {
    authorized.push(call);
    await new Promise((resolve) => setImmediate(resolve));
    return { authorization: `Signed ${call.method} ${new URL(call.url).pathname} ${String(call.body).length}` };
  },
  text: cloudText,
};

function context(): AttemptContext {
  const target: UpstreamTarget = { providerName: 'cloud', kind: 'bedrock', baseUrl: upstream.url, model: 'anthropic.claude-x' };
  return {
    format: messagesFormat,
    adapter: cloudAdapter,
    text: cloudText,
    route: { target, timeoutMs: undefined },
    timeoutMs: 5_000,
    idleTimeoutMs: 5_000,
    maxAnswerBytes: 1_000_000,
    usageWaitMs: 0,
    clientSignal: new ClientScope(),
    forwarded: {},
    encode: { requestId: 'req_1', model: 'claude', request: {} as never },
  } as AttemptContext;
}

async function text(body: string | Uint8Array | AsyncIterable<Uint8Array>): Promise<string> {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  let all = '';
  for await (const chunk of body) all += Buffer.from(chunk).toString('utf8');
  return all;
}

const clientBody = (stream: boolean) => ({ model: 'claude', max_tokens: 10, stream, messages: [{ role: 'user', content: 'hi' }] });

describe('passthrough to an upstream that wants its own body, URL, signature and stream framing', () => {
  it('sends the rewritten body to the model URL, signed over exactly that body', async () => {
    upstream.reply({ body: JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 3, output_tokens: 1 } }) });
    const parsed = clientBody(false);
    const outcome = await passthroughCall(context(), JSON.stringify(parsed), parsed);
    expect(JSON.parse(await text(outcome.body))).toMatchObject({ id: 'msg_1' });
    const sent = upstream.requests.at(-1);
    expect(sent?.path).toBe('/model/anthropic.claude-x/invoke');
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({ anthropic_version: 'platform-2023-05-31', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(authorized.at(-1)?.body).toBe(sent?.body);
    expect(sent?.headers.authorization).toBe(`Signed POST /model/anthropic.claude-x/invoke ${sent?.body.length}`);
    expect((await outcome.completion).usage).toMatchObject({ inputUncached: 3, output: 1 });
  });

  it('streams from the stream URL and relays the binary frames to the client as SSE, metered', async () => {
    const events: [string, unknown][] = [
      ['message_start', { type: 'message_start', message: { id: 'msg_2', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 5, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }],
      ['message_stop', { type: 'message_stop' }],
    ];
    const bytes = Buffer.concat(events.map(([name, data]) => frame(name, data)));
    upstream.reply({ contentType: 'application/vnd.amazon.eventstream', pieces: [bytes.subarray(0, 33), bytes.subarray(33, 200), bytes.subarray(200)] });
    const parsed = clientBody(true);
    const outcome = await passthroughCall(context(), JSON.stringify(parsed), parsed);
    expect(outcome.contentType).toContain('text/event-stream');
    expect(await text(outcome.body)).toBe(events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(''));
    expect(upstream.requests.at(-1)?.path).toBe('/model/anthropic.claude-x/invoke-with-response-stream');
    expect(JSON.parse(upstream.requests.at(-1)?.body ?? '{}')).not.toHaveProperty('stream');
    const completion = await outcome.completion;
    expect(completion).toMatchObject({ completed: true, usage: { inputUncached: 5, output: 2 } });
  });
});

describe('a translated call to an upstream with its own stream framing and an asynchronous signature', () => {
  it('decodes the binary frames into the client format, over a signed call', async () => {
    const events: [string, unknown][] = [
      ['message_start', { type: 'message_start', message: { id: 'msg_3', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 7, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Framed hello' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }],
      ['message_stop', { type: 'message_stop' }],
    ];
    const bytes = Buffer.concat(events.map(([name, data]) => frame(name, data)));
    upstream.reply({ contentType: 'application/vnd.amazon.eventstream', pieces: [bytes.subarray(0, 50), bytes.subarray(50)] });
    const request: IrRequest = { model: 'claude', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], params: { maxOutputTokens: 10 }, stream: true, extensions: {} };
    const signedBefore = authorized.length;
    const outcome = await translatedCall({ ...context(), format: chatFormat, encode: { requestId: 'req_2', model: 'claude', request } }, request);
    const sse = await text(outcome.body);
    const deltas = sse
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => (JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
      .join('');
    expect(deltas).toBe('Framed hello');
    expect(authorized.length - signedBefore).toBe(1);
    expect(upstream.requests.at(-1)?.headers.authorization).toMatch(/^Signed POST /);
    expect((await outcome.completion).usage).toMatchObject({ inputUncached: 7, output: 3 });
  });
});
