import { describe, expect, it } from 'vitest';
import type { ClientFormat, EncodeContext } from '../../../formats/client-format.js';
import { clientFormats } from '../../../formats/registry.js';
import type { FormatName, IrResponse, IrStreamEvent } from '../../../ir/index.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';
import { createSdkClients, driverFor } from '../../../../test/support/matrix-clients.js';
import { foldEvents } from '../../../../test/support/matrix-decode.js';
import { createConverseStreamDecoder, decodeConverseResponse } from './index.js';
import { makeRequest, recordedEvents, replayEvents } from './converse.test-support.js';

/**
 * What a client's official SDK makes of a Converse answer: every recorded ConverseStream, decoded
 * here and encoded in each client format, is read by the `openai` or `@anthropic-ai/sdk` client
 * both streamed and whole, and the two must agree. No server: the SDK's fetch is a stub that
 * returns the encoded bytes.
 */
const formats: readonly FormatName[] = ['chat', 'responses', 'messages'];
const recordings = ['bedrock-reasoning.chunks.txt', 'amazon-bedrock-redacted-content.chunks.txt', 'issue-11409-kimi-k2-thinking-read-file.chunks.txt'];

const clientBodies: Record<FormatName, Record<string, unknown>> = {
  chat: { model: 'converse-model', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } },
  responses: { model: 'converse-model', input: 'hi' },
  messages: { model: 'converse-model', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] },
};

function formatNamed(name: FormatName): ClientFormat {
  const format = clientFormats[name];
  if (format === undefined) throw new Error(`no ${name} format`);
  return format;
}

function encodeContext(format: ClientFormat, stream: boolean): EncodeContext {
  return { requestId: 'req_converse', model: 'converse-model', request: format.decodeRequest({ ...clientBodies[format.name], stream }) };
}

function stubbedDriver(formatName: FormatName, body: string, contentType: string) {
  const clients = createSdkClients('http://converse.invalid', () =>
    Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': contentType, 'x-request-id': 'req_converse' } })));
  return driverFor(formatName, clients);
}

async function readWhole(formatName: FormatName, response: IrResponse) {
  const format = formatNamed(formatName);
  const json = JSON.stringify(format.encodeResponse(response, encodeContext(format, false)));
  return stubbedDriver(formatName, json, 'application/json').run([{ role: 'user', content: 'hi' }], { model: 'converse-model', stream: false, reasoning: false });
}

async function readStreamed(formatName: FormatName, events: readonly IrStreamEvent[]) {
  const format = formatNamed(formatName);
  const encoder = format.createStreamEncoder(encodeContext(format, true));
  const sse = events.map((event) => encoder.encode(event)).join('');
  return stubbedDriver(formatName, sse, 'text/event-stream').run([{ role: 'user', content: 'hi' }], { model: 'converse-model', stream: true, reasoning: false });
}

const cases = formats.flatMap((formatName) => recordings.map((recording) => ({ formatName, recording })));

describe.each(cases)('$formatName client, Converse upstream: $recording', ({ formatName, recording }) => {
  it('the streamed answer the SDK assembles equals the whole one (text, tool calls, reasoning, finish, usage)', async () => {
    const events = replayEvents(createConverseStreamDecoder(makeRequest({ model: 'converse-model', stream: true })), recordedEvents(recording));
    expect(events.some((event) => event.type === 'error')).toBe(false);
    const whole = await readWhole(formatName, foldEvents(events));
    const streamed = await readStreamed(formatName, events);
    expect(streamed.answer).toEqual(whole.answer);
    expect(whole.answer.usage).not.toEqual(expect.objectContaining({ input: 0, output: 0 }));
  });
});

describe.each(formats)('%s client, the documented Converse tool call', (formatName) => {
  it('reads one tool call with the arguments Converse gave', async () => {
    const response = decodeConverseResponse(readJsonFixture('bedrock/converse/docs-tool-use.response.json'), makeRequest({ model: 'converse-model' }));
    const { answer } = await readWhole(formatName, response);
    expect(answer.toolCalls).toEqual([{ id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'top_song', arguments: { sign: 'WZPZ' } }]);
  });
});
