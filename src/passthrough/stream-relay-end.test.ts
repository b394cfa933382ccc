import { describe, expect, it, vi } from 'vitest';
import { chatFormat } from '../formats/chat/index.js';
import type { AttemptContext } from '../call/attempt-context.js';
import { ClientScope } from '../call/client-scope.js';
import { StreamedCallScope } from '../call/streamed-call-scope.js';
import { UpstreamBody } from '../upstream/upstream-body.js';
import { relayStream, type RelayOutcome } from './stream-relay.js';
import { sseEvent } from '../../test/support/sse.js';

// A tokenizer that never finishes loading: whatever waits for it never ends.
vi.mock('../tokens/load-encoder.js', () => ({ loadEncoder: () => new Promise(() => {}) }));

const context = { format: chatFormat, encode: { requestId: 'req_1' }, clientSignal: new ClientScope() } as unknown as AttemptContext;

const contentEvent = sseEvent({ data: '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}],"usage":null}' });
const finishEvent = sseEvent({ data: '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}' });
const doneEvent = sseEvent({ data: '[DONE]' });

describe('the end of a passed-through stream from a server that never states usage', () => {
  it('is not held up by counting its output, which is left to metering', async () => {
    const body = new UpstreamBody(() => {}, () => {}, () => {});
    for (const piece of [contentEvent, finishEvent, doneEvent]) body.push(Buffer.from(piece));
    body.end();
    const outcome: RelayOutcome = { failed: false };
    const relaying = (async () => {
      let text = '';
      for await (const chunk of relayStream({ statusCode: 200, headers: {}, body }, chatFormat.createUsageTap(), context, false, new StreamedCallScope(new ClientScope(), 0), outcome)) text += Buffer.from(chunk).toString();
      return text;
    })();
    const ended = await Promise.race([relaying, new Promise<'held up'>((resolve) => setTimeout(() => resolve('held up'), 1_000))]);
    expect(ended).toBe(contentEvent + finishEvent + doneEvent);
    expect(outcome.deliveredOutput).toBeDefined();
  });
});
