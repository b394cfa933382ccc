/**
 * Faults an upstream can be scripted with. Each is answered in the wire format the request's path
 * names — OpenAI chat, OpenAI Responses, Anthropic Messages or Gemini — streamed when the request
 * asked for a stream. Successful answers and the parts of broken ones that come before the break
 * are recorded bytes from test/fixtures, so only the fault itself is made up.
 */
import { fixtureChunks, readFixture } from '../fixtures.js';
import { dataEvents, sseEvent, ssePieces, typedEvents } from '../sse.js';
import type { ReceivedRequest } from './received-request.js';
import type { Reply } from './reply.js';

export type UpstreamWire = 'chat' | 'responses' | 'messages' | 'gemini';

export type Fault =
  | { readonly kind: 'ok' }
  /** The connection is dropped before any byte of the answer. */
  | { readonly kind: 'reset-before-first-byte' }
  /** The answer's headers and first events go out, then the connection is dropped. */
  | { readonly kind: 'reset-after-first-byte' }
  /** Headers only after `delayMs` (longer than the gateway's time-out). */
  | { readonly kind: 'slow-first-byte'; readonly delayMs: number }
  /** Headers and the first events, then silence with the connection held open. */
  | { readonly kind: 'stall' }
  /** A 200 whose JSON body is cut in the middle. */
  | { readonly kind: 'malformed-json' }
  /** A 200 event stream of bytes that are no SSE at all. */
  | { readonly kind: 'garbage-sse' }
  /** The recorded stream without its last events (no terminator), then a clean end. */
  | { readonly kind: 'truncated-sse' }
  | { readonly kind: 'rate-limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'server-error'; readonly status: 500 | 502 | 503 }
  /** A 200 carrying the wire's error body instead of an answer. */
  | { readonly kind: 'error-body-200' }
  /** A 200 answer of `bytes` bytes, sent in 64 KiB pieces as fast as the gateway reads. */
  | { readonly kind: 'enormous'; readonly bytes: number };

/** The wire a request's path names. */
export function wireOf(path: string): UpstreamWire {
  if (path.includes('/chat/completions')) return 'chat';
  if (path.includes('/responses')) return 'responses';
  if (path.includes('/messages')) return 'messages';
  return 'gemini';
}

/** Whether the request asked for a stream (Gemini says so in its path, the others in the body). */
export function askedForStream(request: ReceivedRequest): boolean {
  return wireOf(request.path) === 'gemini' ? request.path.includes(':streamGenerateContent') : /"stream"\s*:\s*true/.test(request.body);
}

/** A script answering each request with `fault`, in the request's own wire. */
export function faultReply(fault: Fault): (request: ReceivedRequest) => Reply {
  return (request) => {
    const wire = wireOf(request.path);
    const stream = askedForStream(request);
    const recorded = recording(wire, stream);
    const contentType = stream ? 'text/event-stream' : 'application/json';
    const firstBytes = stream ? recorded.slice(0, 2) : [(recorded[0] ?? '').slice(0, 40)];
    switch (fault.kind) {
      case 'ok':
        return { contentType, pieces: recorded };
      case 'reset-before-first-byte':
        return { reset: true };
      case 'reset-after-first-byte':
        return { contentType, pieces: firstBytes, afterPieces: 'reset' };
      case 'slow-first-byte':
        return { contentType, pieces: recorded, delayMs: fault.delayMs };
      case 'stall':
        return { contentType, pieces: firstBytes, afterPieces: 'hang' };
      case 'malformed-json':
        return { body: (recorded.join('') || '{}').slice(0, 30) };
      case 'garbage-sse':
        return { pieces: ['\u0000\u00ff<html>Bad Gateway</html>\r\n', 'data: {not json at all\n\n', 'data: [DONE]\n\n'] };
      case 'truncated-sse':
        return { contentType, pieces: stream ? recorded.slice(0, Math.max(2, recorded.length - 3)) : [(recorded.join('') || '{}').slice(0, 60)] };
      case 'rate-limited':
        return { status: 429, body: errorBody(wire, 429, fault.retryAfterSeconds), headers: { 'retry-after': String(fault.retryAfterSeconds) } };
      case 'server-error':
        return { status: fault.status, body: errorBody(wire, fault.status) };
      case 'error-body-200':
        return { body: errorBody(wire, 500) };
      case 'enormous':
        return { contentType, pieces: filler(stream, fault.bytes) };
    }
  };
}

/** Filler that keeps going: JSON that never closes until the end, or one SSE event after another. */
function* filler(stream: boolean, total: number): Generator<string> {
  const piece = stream ? sseEvent({ data: { filler: 'x'.repeat(64 * 1024 - 24) } }) : 'x'.repeat(64 * 1024);
  let sent = 0;
  if (!stream) {
    yield '{"id":"enormous","filler":"';
    sent += 27;
  }
  while (sent < total) {
    sent += piece.length;
    yield piece;
  }
  if (!stream) yield '"}';
}

/** The recorded answer of each wire, as the pieces it is sent in (one per event when streamed). */
function recording(wire: UpstreamWire, stream: boolean): string[] {
  switch (wire) {
    case 'chat':
      return stream ? ssePieces(dataEvents(fixtureChunks('openai/chat/openai-text.chunks.txt'), { done: true })) : [readFixture('openai/chat/openai-text.json')];
    case 'responses':
      return stream ? ssePieces(typedEvents(fixtureChunks('openai/responses/azure-text.1.chunks.txt'))) : [readFixture('openai/responses/azure-text.1.json')];
    case 'messages':
      return stream ? ssePieces(typedEvents(fixtureChunks('anthropic/messages/anthropic-text.chunks.txt'))) : [readFixture('anthropic/messages/anthropic-text.json')];
    case 'gemini':
      return stream ? ssePieces(dataEvents(fixtureChunks('google/generate-content/google-text.chunks.txt'))) : [readFixture('google/generate-content/google-text.json')];
  }
}

/** Each wire's own error body (docs/wire-formats.md); Gemini's 429 is a recording. */
function errorBody(wire: UpstreamWire, status: number, retryAfterSeconds = 1): string {
  if (wire === 'gemini') {
    if (status === 429) return readFixture('google/generate-content/google-429-retry-info.json').replace(/"retryDelay": "[^"]*"/, `"retryDelay": "${retryAfterSeconds}s"`);
    return JSON.stringify({ error: { code: status, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } });
  }
  if (wire === 'messages') {
    const type = status === 429 ? 'rate_limit_error' : status === 503 ? 'overloaded_error' : 'api_error';
    return JSON.stringify({ type: 'error', error: { type, message: `upstream ${status}` } });
  }
  if (status === 429) return JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
  return JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
}
