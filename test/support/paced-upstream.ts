import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One stream an upstream answers with: its SSE events and where its usage-bearing tail starts. */
export interface PacedStream {
  readonly events: readonly string[];
  /** Index of the first event of the tail that states the call's usage (sent last). */
  readonly usageTailAt: number;
}

export interface PacedUpstream {
  readonly url: string;
  /** Connections closed by the gateway before the stream was over, by the `case=` marker of the request. */
  readonly closedEarly: Map<string, number>;
  close(): Promise<void>;
}

/**
 * An upstream that streams recorded events one by one, `gapMs` apart, chosen by request path.
 * A request whose text contains `withhold` gets every event up to the usage-bearing tail and then
 * nothing more, the connection held open (an upstream that never states its usage in time); any
 * other gets the whole stream. Requests are told apart by a `case=<id>` marker in their text.
 */
export async function startPacedUpstream(streams: Readonly<Record<string, PacedStream>>, gapMs: number): Promise<PacedUpstream> {
  const closedEarly = new Map<string, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const stream = streams[incoming.url ?? ''];
      if (stream === undefined) {
        outgoing.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no stream for this path"}}');
        return;
      }
      const caseId = /case=([\w-]+)/.exec(text)?.[1] ?? 'unknown';
      const events = text.includes('withhold') ? stream.events.slice(0, stream.usageTailAt) : stream.events;
      const pending = [...events];
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      outgoing.on('close', () => {
        clearTimeout(timer);
        if (!finished) closedEarly.set(caseId, Date.now());
      });
      outgoing.writeHead(200, { 'content-type': 'text/event-stream' });
      const writeNext = (): void => {
        const event = pending.shift();
        if (event === undefined) {
          // A withheld tail: the connection stays open, silent, until the gateway gives up on it.
          if (events.length < stream.events.length) return;
          finished = true;
          outgoing.end();
          return;
        }
        outgoing.write(event);
        timer = setTimeout(writeNext, gapMs);
      };
      writeNext();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    closedEarly,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
