import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkFrame, converseFrame, exceptionFrame } from '../../../test/support/fake-bedrock/event-stream-frames.js';
import { createEventStreamReader, loadEventStreamModules, malformedStreamType, type EventStreamFrame, type EventStreamModules } from './event-stream-reader.js';

const recordedException = Buffer.from(readFileSync(new URL('../../../test/fixtures/bedrock/model-stream-error-exception.eventstream.base64.txt', import.meta.url), 'utf8').trim(), 'base64');

let modules: EventStreamModules;
beforeAll(async () => {
  modules = await loadEventStreamModules();
});

function read(chunks: readonly Uint8Array[]): EventStreamFrame[] {
  const frames: EventStreamFrame[] = [];
  const reader = createEventStreamReader(modules, (frame) => frames.push(frame));
  for (const chunk of chunks) reader.push(chunk);
  reader.flush();
  return frames;
}

function joined(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((part) => Buffer.from(part)));
}

describe('the AWS event-stream reader', () => {
  it('reads a recorded Bedrock exception frame with its type and payload', () => {
    expect(read([recordedException])).toEqual([
      { kind: 'exception', exceptionType: 'modelStreamErrorException', payload: '{"message":"Model Stream Error","originalStatusCode":500,"originalMessage":"The model stream failed."}' },
    ]);
  });

  it('cuts the same frames, in order, wherever the chunks break', () => {
    const stream = joined([
      chunkFrame({ type: 'message_start', message: { id: 'msg_1' } }, 1),
      converseFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'é—🙂' } }, 2),
      exceptionFrame('throttlingException', { message: 'Too many tokens, please wait before trying again.' }),
    ]);
    const whole = read([stream]);
    expect(whole.map((frame) => (frame.kind === 'event' ? frame.eventType : frame.exceptionType))).toEqual(['chunk', 'contentBlockDelta', 'throttlingException']);
    for (const size of [1, 2, 3, 7, 13, 64]) {
      const pieces: Uint8Array[] = [];
      for (let offset = 0; offset < stream.byteLength; offset += size) pieces.push(stream.subarray(offset, offset + size));
      expect(read(pieces)).toEqual(whole);
    }
  });

  it('reports a frame whose checksum fails, and reads nothing after it', () => {
    const good = chunkFrame({ type: 'ping' });
    const broken = Buffer.from(chunkFrame({ type: 'message_stop' }));
    broken[broken.byteLength - 6] = (broken[broken.byteLength - 6] ?? 0) ^ 0xff;
    const frames = read([joined([good, broken, good])]);
    expect(frames).toHaveLength(2);
    expect(frames[1]).toMatchObject({ kind: 'exception', exceptionType: malformedStreamType });
  });

  it('reports a stream that ends inside a frame', () => {
    const frame = chunkFrame({ type: 'message_stop' });
    expect(read([frame.subarray(0, frame.byteLength - 5)])).toEqual([expect.objectContaining({ kind: 'exception', exceptionType: malformedStreamType })]);
  });

  it('refuses bytes that are not an event stream (an HTML page) rather than waiting for a huge frame', () => {
    expect(read([Buffer.from('<html><body>Bad gateway</body></html>')])).toEqual([expect.objectContaining({ kind: 'exception', exceptionType: malformedStreamType })]);
  });
});
