import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface FakeReply {
  readonly status?: number;
  readonly contentType?: string;
  /** The whole body, sent at once. */
  readonly body?: string | Buffer;
  /** Further response headers (a redirect's `location`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Body pieces sent one by one with `gapMs` between them (a stream); bytes may cut a character. */
  readonly pieces?: readonly (string | Buffer)[];
  readonly gapMs?: number;
  /** Wait before sending headers. */
  readonly delayMs?: number;
}

export interface FakeUpstream {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** What the next requests get; a function sees the request. */
  reply(reply: FakeReply | ((request: RecordedRequest) => FakeReply)): void;
  /** Resolves when the upstream sees its current request's connection close. */
  readonly closedConnections: () => number;
  close(): Promise<void>;
}

/**
 * A stand-in upstream that answers with recorded bytes and records what the gateway sent it.
 * Pieces are written as given, so SSE framing and chunk boundaries are exactly the recording's.
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  let replyFor: (request: RecordedRequest) => FakeReply = () => ({ status: 500, body: '{"error":{"message":"no reply set"}}' });
  let closed = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const reply = replyFor(request);
      let finished = false;
      outgoing.on('close', () => {
        if (!finished) closed++;
      });
      const timers: NodeJS.Timeout[] = [];
      outgoing.on('close', () => timers.forEach(clearTimeout));
      const start = (): void => {
        outgoing.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? (reply.pieces ? 'text/event-stream' : 'application/json'), ...reply.headers });
        if (reply.pieces === undefined) {
          finished = true;
          outgoing.end(reply.body ?? '');
          return;
        }
        const pieces = [...reply.pieces];
        const writeNext = (): void => {
          const piece = pieces.shift();
          if (piece === undefined) {
            finished = true;
            outgoing.end();
            return;
          }
          outgoing.write(piece);
          timers.push(setTimeout(writeNext, reply.gapMs ?? 0));
        };
        writeNext();
      };
      if (reply.delayMs) timers.push(setTimeout(start, reply.delayMs));
      else start();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(reply) {
      replyFor = typeof reply === 'function' ? reply : () => reply;
    },
    closedConnections: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Splits an SSE text into one piece per event, so a stream arrives event by event. */
export function ssePieces(sse: string): string[] {
  return sse.split(/(?<=\n\n)/).filter((piece) => piece.length > 0);
}
