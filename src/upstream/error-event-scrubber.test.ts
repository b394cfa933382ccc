import { describe, expect, it } from 'vitest';
import { createErrorEventScrubber, type ErrorEventScrubber } from './error-event-scrubber.js';
import { createSseReader } from './sse-reader.js';

/** A scrubber told about each event by an SSE reader, as the relays do; `push` reads the chunk first. */
function scrubber(): ErrorEventScrubber & { finish(): Uint8Array | undefined } {
  const through = createErrorEventScrubber((text) => text.replaceAll('SECRET', '[credential]'));
  const reader = createSseReader((event) => through.observe(event.event, event.data));
  return {
    ...through,
    push(chunk) {
      reader.push(chunk);
      return through.push(chunk);
    },
    finish() {
      reader.flush();
      return through.end();
    },
  };
}

/** Everything a relay would send for `chunks`, as text. */
function relayed(chunks: string[]): string {
  const through = scrubber();
  const out: Uint8Array[] = chunks.flatMap((chunk) => through.push(Buffer.from(chunk)) ?? []);
  const rest = through.finish();
  if (rest !== undefined) out.push(rest);
  return Buffer.concat(out).toString('utf8');
}

const output = 'data: {"choices":[{"delta":{"content":"a SECRET of the model, and an error in it"}}]}\n\n';

describe('scrubbing the error events of a relayed stream', () => {
  it('hands back a chunk without an error event as the same bytes, not a copy', () => {
    const through = scrubber();
    for (const text of ['data: {"choices":[]}\n\n', output, 'event: message_delta\ndata: {"type":"message_delta"}\n\n']) {
      const chunk = Buffer.from(text);
      expect(through.push(chunk)).toBe(chunk);
    }
    const unfinished = Buffer.from('data: {"choices":[{"delta":{"content":"long');
    expect(through.push(unfinished)).toBe(unfinished);
  });

  it('scrubs only the error event of a chunk, leaving model output as written', () => {
    expect(relayed([`${output}data: {"error":{"message":"key SECRET"}}\n\n`])).toBe(`${output}data: {"error":{"message":"key [credential]"}}\n\n`);
  });

  it('holds an error event cut between chunks, the secret cut too, until it ends', () => {
    const through = scrubber();
    expect(Buffer.from(through.push(Buffer.from(`${output}event: error\ndata: {"message":"key SEC`)) ?? []).toString()).toBe(output);
    expect(Buffer.from(through.push(Buffer.from('RET here"}\n\ndata: [DONE]\n\n')) ?? []).toString()).toBe('event: error\ndata: {"message":"key [credential] here"}\n\ndata: [DONE]\n\n');
  });

  it('holds a start too short to tell, and relays it once it is not an error', () => {
    const through = scrubber();
    expect(through.push(Buffer.from('event: err'))).toBeUndefined();
    expect(Buffer.from(through.push(Buffer.from('or\ndata: {"SECRET"}\n\n')) ?? []).toString()).toBe('event: error\ndata: {"[credential]"}\n\n');
    expect(through.push(Buffer.from('data: {'))).toBeUndefined();
    expect(Buffer.from(through.push(Buffer.from('"id":"SECRET"}\n\n')) ?? []).toString()).toBe('data: {"id":"SECRET"}\n\n');
  });

  it("finds chat's spaced error payload, vLLM's error object and Responses' response.failed", () => {
    expect(relayed(['data: { "error": "SECRET"}\n\n'])).toBe('data: { "error": "[credential]"}\n\n');
    expect(relayed(['data: {"object":"er', 'ror","message":"SECRET","code":400}\n\n'])).toBe('data: {"object":"error","message":"[credential]","code":400}\n\n');
    expect(relayed(['event: response.failed\ndata: {"response":{"error":{"message":"SE', 'CRET"}}}\n\n'])).toBe('event: response.failed\ndata: {"response":{"error":{"message":"[credential]"}}}\n\n');
  });

  it('scrubs an error event the stream ends with, without its blank line, and what an earlier stage let go at the end', () => {
    expect(relayed([output, 'data: {"error":"SECRET"}'])).toBe(`${output}data: {"error":"[credential]"}`);
    const through = scrubber();
    expect(through.push(Buffer.from(output))).toBeDefined();
    expect(Buffer.from(through.end(Buffer.from('event: error\ndata: {"m":"SECRET"}')) ?? []).toString()).toBe('event: error\ndata: {"m":"[credential]"}');
  });

  it('reads a payload that runs over several data lines', () => {
    expect(relayed(['data: {\n', 'data: "error": "SECRET"}\n\n'])).toBe('data: {\ndata: "error": "[credential]"}\n\n');
  });

  it('sees a blank line cut between chunks, and CRLF line ends', () => {
    expect(relayed(['data: {"id":1}\n', '\ndata: {"error":"SE', 'CRET"}\n\n'])).toBe('data: {"id":1}\n\ndata: {"error":"[credential]"}\n\n');
    expect(relayed(['data: {"id":1}\r\n\r', '\nevent: error\r\ndata: {"m":"SECRET"}\r\n\r\n'])).toBe('data: {"id":1}\r\n\r\nevent: error\r\ndata: {"m":"[credential]"}\r\n\r\n');
  });

  it('keeps a character cut between chunks whole', () => {
    const event = Buffer.from('data: {"error":"café SECRET"}\n\n');
    const cut = event.indexOf('é') + 1;
    const through = scrubber();
    const out = [through.push(event.subarray(0, cut)), through.push(event.subarray(cut)), through.finish()].flatMap((piece) => piece ?? []);
    expect(Buffer.concat(out).toString('utf8')).toBe('data: {"error":"café [credential]"}\n\n');
  });

  it('drops an error event that grows past the limit instead of holding it without bound', () => {
    const through = scrubber();
    expect(through.push(Buffer.from(`data: {"error":"${'x'.repeat(1024 * 1024)}`))).toBeUndefined();
    expect(through.push(Buffer.from('SECRET'))).toBeUndefined();
    expect(Buffer.from(through.push(Buffer.from('"}\n\ndata: [DONE]\n\n')) ?? []).toString()).toBe('data: [DONE]\n\n');
    expect(through.finish()).toBeUndefined();
  });
});
