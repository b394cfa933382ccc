import { describe, expect, it } from 'vitest';
import type { ClientFormat, EncodeContext } from '../../src/formats/client-format.js';
import type { FormatName } from '../../src/ir/format-name.js';
import { clientFormats } from '../../src/formats/registry.js';
import type { IrStreamEvent } from '../../src/ir/index.js';
import { createSdkClients, driverFor } from '../support/matrix-clients.js';
import { foldEvents } from '../support/matrix-decode.js';
import { decodeRecordedChunks, streamRecordings, type StreamRecording } from '../support/matrix-stream-recordings.js';
import type { UpstreamWire } from '../support/matrix-recordings.js';

/**
 * Property: for every client format and every stream recording of every upstream wire, the answer
 * the official SDK assembles from the format's stream equals the one it parses from the format's
 * non-streamed body, when both come from the same decoded upstream events:
 *   (a) events → StreamAccumulator → encodeResponse → SDK create()  (custom fetch answers JSON)
 *   (b) events → createStreamEncoder → SSE → SDK stream helper        (custom fetch answers SSE)
 * No server: the SDK's fetch is a stub that returns the encoded bytes.
 */
const formats: readonly FormatName[] = ['chat', 'responses', 'messages'];
const wires: readonly UpstreamWire[] = ['chat', 'responses', 'anthropic', 'gemini', 'converse'];

/** Recordings of a failing upstream: there is no final answer to compare (checked separately below). */
const errorRecordings = new Set(['openai/responses/openai-error.1.chunks.txt']);

const clientBodies: Record<FormatName, Record<string, unknown>> = {
  chat: { model: 'matrix-model', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } },
  responses: { model: 'matrix-model', input: 'hi' },
  messages: { model: 'matrix-model', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] },
};

function encodeContext(format: ClientFormat, stream: boolean): EncodeContext {
  return { requestId: 'req_matrix_property', model: 'matrix-model', request: format.decodeRequest({ ...clientBodies[format.name], stream }) };
}

/** SDK clients whose every call is answered with `reply()` instead of going to the network. */
function stubbedDriver(formatName: FormatName, reply: () => { body: string; contentType: string }) {
  const clients = createSdkClients('http://matrix.invalid', () => {
    const { body, contentType } = reply();
    return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': contentType, 'x-request-id': 'req_matrix_property' } }));
  });
  return driverFor(formatName, clients);
}

function encodeStream(format: ClientFormat, events: readonly IrStreamEvent[]): string {
  const encoder = format.createStreamEncoder(encodeContext(format, true));
  return events.map((event) => encoder.encode(event)).join('');
}

const cases = formats.flatMap((formatName) =>
  wires.flatMap((wire) =>
    streamRecordings(wire)
      .filter((recording) => !errorRecordings.has(recording.name))
      .map((recording) => ({ formatName, wire, recording })),
  ),
);

describe.each(cases)('$formatName client, $wire upstream: $recording.name', ({ formatName, recording }) => {
  it('the streamed answer equals the non-streamed one (text, tool calls, reasoning, finish, usage)', async () => {
    const format = clientFormats[formatName]!;
    const events = decodeRecordedChunks(recording);
    expect(events.some((event) => event.type === 'error'), 'the recording decodes without error').toBe(false);

    const json = JSON.stringify(format.encodeResponse(foldEvents(events), encodeContext(format, false)));
    const whole = await stubbedDriver(formatName, () => ({ body: json, contentType: 'application/json' }))
      .run([{ role: 'user', content: 'hi' }], { model: 'matrix-model', stream: false, reasoning: false });

    const sse = encodeStream(format, events);
    const streamed = await stubbedDriver(formatName, () => ({ body: sse, contentType: 'text/event-stream' }))
      .run([{ role: 'user', content: 'hi' }], { model: 'matrix-model', stream: true, reasoning: false });

    expect(streamed.answer).toEqual(whole.answer);
  });
});

describe.each(formats)('%s client, a recorded stream that fails upstream', (formatName) => {
  it('has no final answer on either side: the decoder ends in an error and the SDK stream rejects', async () => {
    const recording = streamRecordings('responses').find((candidate) => errorRecordings.has(candidate.name)) as StreamRecording;
    const events = decodeRecordedChunks(recording);
    expect(events.at(-1)?.type).toBe('error');
    const format = clientFormats[formatName]!;
    const sse = encodeStream(format, events);
    const driver = stubbedDriver(formatName, () => ({ body: sse, contentType: 'text/event-stream' }));
    await expect(driver.run([{ role: 'user', content: 'hi' }], { model: 'matrix-model', stream: true, reasoning: false })).rejects.toThrow();
  });
});
