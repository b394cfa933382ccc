import { describe, expect, it } from 'vitest';
import { chatFormat } from '../formats/chat/index.js';
import type { AttemptContext } from '../call/attempt-context.js';
import { ClientScope } from '../call/client-scope.js';
import { StreamedCallScope } from '../call/streamed-call-scope.js';
import { UpstreamBody } from '../upstream/upstream-body.js';
import { relayStream, type RelayOutcome } from './stream-relay.js';
import { sseEvent } from '../../test/support/sse.js';

const context = { format: chatFormat, encode: { requestId: 'req_1' }, clientSignal: new ClientScope() } as unknown as AttemptContext;

const contentEvent = sseEvent({ data: '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}],"usage":null}' });
const finishEvent = sseEvent({ data: '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}' });
/** A usage chunk as a server that closes without `[DONE]` and without the event's blank line sends it. */
const unterminatedUsageEvent = 'data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}';

function upstreamBody(pieces: readonly string[]): UpstreamBody {
  const body = new UpstreamBody(() => {}, () => {}, () => {});
  for (const piece of pieces) body.push(Buffer.from(piece));
  return body;
}

describe('a passed-through stream whose client leaves', () => {
  it('reads the usage of an upstream that closes without ending its last event, after the client left', async () => {
    const body = upstreamBody([contentEvent, finishEvent, unterminatedUsageEvent]);
    body.end();
    const tap = chatFormat.createUsageTap();
    const scope = new StreamedCallScope(new ClientScope(), 60_000);
    const stream = relayStream({ statusCode: 200, headers: {}, body }, tap, context, false, scope);
    await stream.next();
    // Given up while the first chunk was with the client: the rest is read for the usage only.
    await stream.return(undefined);
    expect(tap.usage()).toMatchObject({ inputUncached: 5, output: 2 });
    expect(scope.upstream.aborted).toBe(true);
  });

  it('stops its wait for usage when the client left while the next chunk was awaited and the upstream then ended', async () => {
    const body = upstreamBody([contentEvent]);
    const client = new ClientScope();
    const scope = new StreamedCallScope(client, 60_000);
    const outcome: RelayOutcome = { failed: false };
    const stream = relayStream({ statusCode: 200, headers: {}, body }, chatFormat.createUsageTap(), context, false, scope, outcome);
    await stream.next();
    const awaited = stream.next();
    client.abort();
    body.end();
    await awaited;
    while ((await stream.next()).done !== true);
    // The wait's timer is cleared and the upstream call is over, not left to a 60 s timer.
    expect(scope.upstream.aborted).toBe(true);
    expect(outcome.deliveredOutput).toBeDefined();
  });
});
