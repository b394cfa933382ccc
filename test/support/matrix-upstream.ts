import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ssePieces } from './fake-upstream.js';

/** One call the gateway made to the upstream, and the bytes the upstream answered with. */
export interface MatrixExchange {
  readonly path: string;
  readonly requestBody: string;
  readonly status: number;
  readonly contentType: string;
  readonly responseBody: string;
}

/** What the upstream answers: recorded bytes, or whatever the simulator says to the same request. */
export type MatrixReply =
  | { readonly kind: 'json'; readonly body: string }
  | { readonly kind: 'sse'; readonly text: string }
  | { readonly kind: 'simulator' };

export interface MatrixUpstream {
  readonly url: string;
  readonly exchanges: MatrixExchange[];
  /** What the next calls get; a list is consumed one reply per call (turn one, turn two, …). */
  serve(...replies: MatrixReply[]): void;
  close(): Promise<void>;
}

/**
 * A fake upstream for the matrix. Unlike startFakeUpstream it also keeps the bytes it answered
 * with, because the matrix derives its expectations by decoding exactly those bytes; and it can
 * forward a call to the provider simulator, so simulator cells are checked the same way as
 * recorded ones.
 */
export async function startMatrixUpstream(simulatorUrl: string): Promise<MatrixUpstream> {
  const exchanges: MatrixExchange[] = [];
  let queue: MatrixReply[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = incoming.url ?? '';
      const requestBody = Buffer.concat(chunks).toString('utf8');
      const reply = queue.length > 1 ? queue.shift() : queue[0];
      void answer(reply, path, requestBody).then((answered) => {
        exchanges.push({ path, requestBody, ...answered });
        outgoing.writeHead(answered.status, { 'content-type': answered.contentType });
        if (!answered.contentType.startsWith('text/event-stream')) {
          outgoing.end(answered.responseBody);
          return;
        }
        // Event by event, so the gateway sees the recording's event boundaries as separate reads.
        const pieces = ssePieces(answered.responseBody);
        const writeNext = (): void => {
          const piece = pieces.shift();
          if (piece === undefined) outgoing.end();
          else outgoing.write(piece, () => setImmediate(writeNext));
        };
        writeNext();
      });
    });
  });

  async function answer(reply: MatrixReply | undefined, path: string, body: string): Promise<Omit<MatrixExchange, 'path' | 'requestBody'>> {
    if (reply === undefined) return { status: 500, contentType: 'application/json', responseBody: '{"error":{"message":"no reply set"}}' };
    if (reply.kind === 'json') return { status: 200, contentType: 'application/json', responseBody: reply.body };
    if (reply.kind === 'sse') return { status: 200, contentType: 'text/event-stream', responseBody: reply.text };
    const response = await fetch(`${simulatorUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json', responseBody: await response.text() };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    serve(...replies) {
      queue = replies;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
