import { describe, expect, it } from 'vitest';
import { chatFormat } from '../formats/chat/index.js';
import type { AttemptContext } from '../call/attempt-context.js';
import { ClientScope } from '../call/client-scope.js';
import { StreamedCallScope } from '../call/streamed-call-scope.js';
import { UpstreamBody } from '../upstream/upstream-body.js';
import { relayStream } from './stream-relay.js';
import { sseEvent } from '../../test/support/sse.js';

const context = { format: chatFormat, encode: { requestId: 'req_1' } } as unknown as AttemptContext;

const contentEvent = sseEvent({ data: '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}],"usage":null}' });
const finishEvent = sseEvent({ data: '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}' });
const usageEvent = sseEvent({ data: '{"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}' });
const doneEvent = sseEvent({ data: '[DONE]' });

async function relay(pieces: readonly string[], dropUsageChunk: boolean): Promise<{ text: string; usage: unknown }> {
  const body = new UpstreamBody(() => {}, () => {}, () => {});
  for (const piece of pieces) body.push(Buffer.from(piece));
  body.end();
  const tap = chatFormat.createUsageTap();
  let text = '';
  for await (const chunk of relayStream({ statusCode: 200, headers: {}, body }, tap, context, dropUsageChunk, new StreamedCallScope(new ClientScope(), 0))) text += Buffer.from(chunk).toString();
  return { text, usage: tap.usage() };
}

describe('relaying a passed-through chat stream', () => {
  it('passes every byte when the client asked for usage itself', async () => {
    const pieces = [contentEvent, finishEvent, usageEvent, doneEvent];
    const relayed = await relay(pieces, false);
    expect(relayed.text).toBe(pieces.join(''));
    expect(relayed.usage).toMatchObject({ inputUncached: 5, output: 2 });
  });

  it('drops only the usage chunk it asked for, however the events are cut into chunks', async () => {
    const whole = contentEvent + finishEvent + usageEvent + doneEvent;
    const expected = contentEvent + finishEvent + doneEvent;
    const cuts = [
      [contentEvent, finishEvent, usageEvent, doneEvent],
      [whole],
      [whole.slice(0, 50), whole.slice(50, 260), whole.slice(260)],
      [contentEvent + finishEvent.slice(0, 10), finishEvent.slice(10) + usageEvent.slice(0, 40), usageEvent.slice(40), doneEvent],
    ];
    for (const pieces of cuts) {
      const relayed = await relay(pieces, true);
      expect(relayed.text).toBe(expected);
      expect(relayed.usage).toMatchObject({ inputUncached: 5, output: 2 });
    }
  });

  it('ends a stream cut short with the format\'s error event', async () => {
    const relayed = await relay([contentEvent], false);
    expect(relayed.text.startsWith(contentEvent)).toBe(true);
    expect(relayed.text.slice(contentEvent.length)).toContain('"error"');
  });
});
