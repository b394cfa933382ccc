/**
 * An upstream that misbehaves on cue. Each request takes the next scripted fault (or the default
 * one) and is answered in the wire format its path names — OpenAI chat, OpenAI Responses,
 * Anthropic Messages or Gemini — streamed when the request asked for a stream. Successful
 * answers and the parts of broken ones that come before the break are recorded bytes from
 * test/fixtures, so only the fault itself is made up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { fixtureChunks, readFixture, sseFromChunks } from './fixtures.js';
import { ssePieces } from './fake-upstream.js';

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

export interface FaultRequest {
  readonly wire: UpstreamWire;
  readonly stream: boolean;
  readonly path: string;
  readonly fault: Fault['kind'];
}

export interface FaultUpstream {
  readonly url: string;
  /** Every request seen, with the fault it was given. */
  readonly requests: FaultRequest[];
  /** The next requests get these faults, in order; after them, the default. */
  script(...faults: Fault[]): void;
  /** What requests get once the script is used up (`ok` at first). */
  setDefault(fault: Fault): void;
  /** Connections the gateway closed before the answer was complete. */
  readonly abandoned: () => number;
  close(): Promise<void>;
}

export async function startFaultUpstream(): Promise<FaultUpstream> {
  const requests: FaultRequest[] = [];
  const queue: Fault[] = [];
  let fallbackFault: Fault = { kind: 'ok' };
  let abandoned = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = incoming.url ?? '';
      const wire = wireOf(path);
      const body = Buffer.concat(chunks).toString('utf8');
      const stream = wire === 'gemini' ? path.includes(':streamGenerateContent') : /"stream"\s*:\s*true/.test(body);
      const fault = queue.shift() ?? fallbackFault;
      requests.push({ wire, stream, path, fault: fault.kind });
      let finished = false;
      outgoing.on('finish', () => (finished = true));
      outgoing.on('close', () => {
        if (!finished) abandoned++;
      });
      answer(fault, wire, stream, incoming, outgoing);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...faults) => {
      queue.length = 0;
      queue.push(...faults);
    },
    setDefault: (fault) => (fallbackFault = fault),
    abandoned: () => abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL with nothing listening on it: connections are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function wireOf(path: string): UpstreamWire {
  if (path.includes('/chat/completions')) return 'chat';
  if (path.includes('/responses')) return 'responses';
  if (path.includes('/messages')) return 'messages';
  return 'gemini';
}

function answer(fault: Fault, wire: UpstreamWire, stream: boolean, incoming: IncomingMessage, outgoing: ServerResponse): void {
  const recorded = recording(wire, stream);
  const contentType = stream ? 'text/event-stream' : 'application/json';
  switch (fault.kind) {
    case 'ok':
      return sendPieces(outgoing, 200, contentType, recorded);
    case 'reset-before-first-byte':
      incoming.socket.destroy();
      return;
    case 'reset-after-first-byte':
      outgoing.writeHead(200, { 'content-type': contentType });
      outgoing.write(stream ? recorded.slice(0, 2).join('') : (recorded[0] ?? '').slice(0, 40));
      setTimeout(() => incoming.socket.destroy(), 20);
      return;
    case 'slow-first-byte': {
      const timer = setTimeout(() => sendPieces(outgoing, 200, contentType, recorded), fault.delayMs);
      outgoing.on('close', () => clearTimeout(timer));
      return;
    }
    case 'stall':
      outgoing.writeHead(200, { 'content-type': contentType });
      outgoing.write(stream ? recorded.slice(0, 2).join('') : (recorded[0] ?? '').slice(0, 40));
      return;
    case 'malformed-json':
      return sendPieces(outgoing, 200, 'application/json', [(recorded.join('') || '{}').slice(0, 30)]);
    case 'garbage-sse':
      return sendPieces(outgoing, 200, 'text/event-stream', ['\u0000\u00ff<html>Bad Gateway</html>\r\n', 'data: {not json at all\n\n', 'data: [DONE]\n\n']);
    case 'truncated-sse':
      return sendPieces(outgoing, 200, contentType, stream ? recorded.slice(0, Math.max(2, recorded.length - 3)) : [(recorded.join('') || '{}').slice(0, 60)]);
    case 'rate-limited':
      return sendPieces(outgoing, 429, 'application/json', [errorBody(wire, 429, fault.retryAfterSeconds)], { 'retry-after': String(fault.retryAfterSeconds) });
    case 'server-error':
      return sendPieces(outgoing, fault.status, 'application/json', [errorBody(wire, fault.status)]);
    case 'error-body-200':
      return sendPieces(outgoing, 200, 'application/json', [errorBody(wire, 500)]);
    case 'enormous':
      return sendEnormous(outgoing, contentType, stream, fault.bytes);
  }
}

function sendPieces(outgoing: ServerResponse, status: number, contentType: string, pieces: readonly string[], headers: Record<string, string> = {}): void {
  outgoing.writeHead(status, { 'content-type': contentType, ...headers });
  for (const piece of pieces) outgoing.write(piece);
  outgoing.end();
}

/** Filler that keeps going: JSON that never closes, or one SSE event after another. */
function sendEnormous(outgoing: ServerResponse, contentType: string, stream: boolean, total: number): void {
  outgoing.writeHead(200, { 'content-type': contentType });
  const piece = stream ? `data: {"filler":"${'x'.repeat(64 * 1024 - 24)}"}\n\n` : 'x'.repeat(64 * 1024);
  let sent = 0;
  if (!stream) {
    outgoing.write('{"id":"enormous","filler":"');
    sent += 27;
  }
  const writeMore = (): void => {
    while (sent < total) {
      sent += piece.length;
      if (!outgoing.write(piece)) {
        outgoing.once('drain', writeMore);
        return;
      }
    }
    outgoing.end(stream ? '' : '"}');
  };
  outgoing.on('error', () => undefined);
  writeMore();
}

/** The recorded answer of each wire, as the pieces it is sent in (one per event when streamed). */
function recording(wire: UpstreamWire, stream: boolean): string[] {
  switch (wire) {
    case 'chat':
      return stream ? ssePieces(sseFromChunks(fixtureChunks('openai/chat/openai-text.chunks.txt'), 'data', true)) : [readFixture('openai/chat/openai-text.json')];
    case 'responses':
      return stream ? ssePieces(sseFromChunks(fixtureChunks('openai/responses/azure-text.1.chunks.txt'), 'named')) : [readFixture('openai/responses/azure-text.1.json')];
    case 'messages':
      return stream ? ssePieces(sseFromChunks(fixtureChunks('anthropic/messages/anthropic-text.chunks.txt'), 'named')) : [readFixture('anthropic/messages/anthropic-text.json')];
    case 'gemini':
      return stream ? ssePieces(sseFromChunks(fixtureChunks('google/generate-content/google-text.chunks.txt'), 'data')) : [readFixture('google/generate-content/google-text.json')];
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
