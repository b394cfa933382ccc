import { describe, expect, it } from 'vitest';
import { captureResponseObject } from './capture-response-object.js';
import type { CallCompletion, CallOutcome } from '../call/call-outcome.js';
import type { ChunkStream } from '../call/commit-stream.js';
import { sse, typedEvents } from '../../test/support/sse.js';

async function* streamOf(pieces: readonly string[]): ChunkStream {
  const encoder = new TextEncoder();
  for (const piece of pieces) yield encoder.encode(piece);
}

async function readAll(body: CallOutcome['body']): Promise<string> {
  if (typeof body === 'string' || body instanceof Uint8Array) throw new Error('expected a stream');
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text;
}

const completed: Promise<CallCompletion> = Promise.resolve({ usage: undefined, completed: true, status: 200 });

describe('capturing the response object of a Responses answer', () => {
  it('finds the terminal event even when its marker is split across chunks, and leaves the bytes alone', async () => {
    const stream = sse(
      typedEvents([
        { type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } },
        { type: 'response.output_text.delta', delta: 'the words response.completed in text' },
        { type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [] } },
      ]),
    );
    const cut = stream.indexOf('response.completed\ndata') + 9;
    const { outcome, response } = captureResponseObject({ contentType: 'text/event-stream', body: streamOf([stream.slice(0, cut), stream.slice(cut)]), completion: completed });
    const relayed = await readAll(outcome.body);
    expect(relayed).toBe(stream);
    expect(await response).toEqual({ id: 'resp_1', status: 'completed', output: [] });
  });

  it('parses a non-streamed body whole', async () => {
    const { response } = captureResponseObject({ contentType: 'application/json', body: '{"id":"resp_2","object":"response"}', completion: completed });
    expect(await response).toEqual({ id: 'resp_2', object: 'response' });
  });

  it('yields nothing for a stream that never completed', async () => {
    const { outcome, response } = captureResponseObject({
      contentType: 'text/event-stream',
      body: streamOf([sse(typedEvents([{ type: 'response.created', response: { id: 'resp_3' } }]))]),
      completion: completed,
    });
    await readAll(outcome.body);
    expect(await response).toBeUndefined();
  });
});
