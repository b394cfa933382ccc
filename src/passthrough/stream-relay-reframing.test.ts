import { describe, expect, it } from 'vitest';
import { messagesFormat } from '../formats/messages/index.js';
import type { AttemptContext } from '../call/attempt-context.js';
import { ClientScope } from '../call/client-scope.js';
import { StreamedCallScope } from '../call/streamed-call-scope.js';
import type { UpstreamEventReaderFactory, UpstreamStreamEvent } from '../providers/provider-adapter.js';
import { UpstreamBody } from '../upstream/upstream-body.js';
import { relayStream } from './stream-relay.js';

const context = { format: messagesFormat, encode: { requestId: 'req_1' }, route: { target: { providerName: 'p', kind: 'bedrock', baseUrl: 'http://x', model: 'm' } } } as unknown as AttemptContext;

/**
 * A binary framing standing in for the AWS event stream: each frame is a 4-byte big-endian length
 * and a JSON `{event, data}`. Frames may be cut anywhere across chunks, as on the wire.
 */
const lengthPrefixedReader: UpstreamEventReaderFactory = (onEvent) => {
  let held = Buffer.alloc(0);
  return {
    push(chunk) {
      held = Buffer.concat([held, chunk]);
      while (held.length >= 4 && held.length >= 4 + held.readUInt32BE(0)) {
        const length = held.readUInt32BE(0);
        onEvent(JSON.parse(held.subarray(4, 4 + length).toString('utf8')) as UpstreamStreamEvent);
        held = held.subarray(4 + length);
      }
    },
    flush() {},
  };
};

function frame(event: string, data: unknown): Buffer {
  const json = Buffer.from(JSON.stringify({ event, data: JSON.stringify(data) }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([length, json]);
}

const events: [string, unknown][] = [
  ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }],
  ['message_stop', { type: 'message_stop' }],
];

async function relayFramed(bytes: Buffer, cutEvery: number): Promise<{ text: string; usage: unknown }> {
  const body = new UpstreamBody(() => {}, () => {}, () => {});
  for (let at = 0; at < bytes.length; at += cutEvery) body.push(bytes.subarray(at, at + cutEvery));
  body.end();
  const tap = messagesFormat.createUsageTap();
  let text = '';
  const scope = new StreamedCallScope(new ClientScope(), 0);
  for await (const chunk of relayStream({ statusCode: 200, headers: {}, body }, tap, context, false, scope, { failed: false }, lengthPrefixedReader)) text += Buffer.from(chunk).toString();
  return { text, usage: tap.usage() };
}

describe('relaying an upstream stream that is not SSE to an SSE client', () => {
  it.each([7, 64, 100_000])('re-frames each event as SSE, however the frames are cut (%i-byte chunks), and reads its usage', async (cutEvery) => {
    const relayed = await relayFramed(Buffer.concat(events.map(([name, data]) => frame(name, data))), cutEvery);
    expect(relayed.text).toBe(events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(''));
    expect(relayed.usage).toMatchObject({ inputUncached: 9, output: 4 });
  });

  it("ends a stream cut before its last event with the format's error event", async () => {
    const relayed = await relayFramed(Buffer.concat(events.slice(0, 3).map(([name, data]) => frame(name, data))), 50);
    expect(relayed.text).toContain('event: content_block_delta\n');
    expect(relayed.text).toMatch(/event: error\ndata: .*"type":"error"/);
  });
});
