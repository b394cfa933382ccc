import { describe, expect, it } from 'vitest';
import { captureResponseObject } from './capture-response-object.js';
import type { CallCompletion } from '../routing/call-outcome.js';

function streamOf(pieces: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

const completed: Promise<CallCompletion> = Promise.resolve({ usage: undefined, completed: true, status: 200 });

describe('capturing the response object of a Responses answer', () => {
  it('finds the terminal event even when its marker is split across chunks, and leaves the bytes alone', async () => {
    const sse =
      'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}\n\n' +
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"the words response.completed in text"}\n\n' +
      'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[]}}\n\n';
    const cut = sse.indexOf('response.completed\ndata') + 9;
    const { outcome, response } = captureResponseObject({ contentType: 'text/event-stream', body: streamOf([sse.slice(0, cut), sse.slice(cut)]), completion: completed });
    const relayed = await new Response(outcome.body as ReadableStream<Uint8Array>).text();
    expect(relayed).toBe(sse);
    expect(await response).toEqual({ id: 'resp_1', status: 'completed', output: [] });
  });

  it('parses a non-streamed body whole', async () => {
    const { response } = captureResponseObject({ contentType: 'application/json', body: '{"id":"resp_2","object":"response"}', completion: completed });
    expect(await response).toEqual({ id: 'resp_2', object: 'response' });
  });

  it('yields nothing for a stream that never completed', async () => {
    const { outcome, response } = captureResponseObject({
      contentType: 'text/event-stream',
      body: streamOf(['event: response.created\ndata: {"type":"response.created","response":{"id":"resp_3"}}\n\n']),
      completion: completed,
    });
    await new Response(outcome.body as ReadableStream<Uint8Array>).text();
    expect(await response).toBeUndefined();
  });
});
