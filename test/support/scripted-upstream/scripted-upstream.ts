import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedRequest } from './received-request.js';
import type { Reply } from './reply.js';
import { sendReply } from './send-reply.js';

export type ReplyScript = Reply | ((request: ReceivedRequest) => Reply);

export interface ScriptedUpstream {
  readonly url: string;
  /** Every request received, in order, each with what was answered: `toEqual([])` says nothing was sent upstream. */
  readonly requests: ReceivedRequest[];
  /** What every later request gets (after any scripted ones); a function sees the request. */
  reply(script: ReplyScript): void;
  /** The next requests get these, one each, in order; then the `reply` default again. */
  script(...replies: ReplyScript[]): void;
  /** Requests received (that match). */
  calls(match?: (request: ReceivedRequest) => boolean): number;
  /** Answers delivered in full (that match): the last byte written and the answer ended. */
  completed(match?: (request: ReceivedRequest) => boolean): number;
  /** Connections closed before their answer was complete (the gateway gave up or left). */
  closedEarly(): number;
  close(): Promise<void>;
}

const noReplySet: Reply = { status: 500, body: '{"error":{"message":"no reply set"}}' };

/**
 * The fake upstream of the end-to-end tests: a real HTTP server on a loopback port that answers
 * from a script (JSON, recorded bytes, SSE paced event by event, an error status, a reset, a hang,
 * a relay to the provider simulator) and records every request and every byte it answered.
 */
export async function startScriptedUpstream(options: { readonly reply?: ReplyScript } = {}): Promise<ScriptedUpstream> {
  const requests: ReceivedRequest[] = [];
  const queue: ReplyScript[] = [];
  let fallback: ReplyScript = options.reply ?? noReplySet;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: rawBody.toString('utf8'),
        rawBody,
        receivedAt: Date.now(),
        answer: { status: undefined, contentType: undefined, body: '', bytes: [], complete: false, closedEarlyAt: undefined, endedAt: undefined },
      };
      requests.push(received);
      const script = queue.shift() ?? fallback;
      sendReply(typeof script === 'function' ? script(received) : script, received, incoming, outgoing);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const count = (match: ((request: ReceivedRequest) => boolean) | undefined, also: (request: ReceivedRequest) => boolean) =>
    requests.filter((request) => also(request) && (match === undefined || match(request))).length;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    reply(script) {
      fallback = script;
    },
    script(...replies) {
      queue.length = 0;
      queue.push(...replies);
    },
    calls: (match) => count(match, () => true),
    completed: (match) => count(match, (request) => request.answer.complete),
    closedEarly: () => count(undefined, (request) => request.answer.closedEarlyAt !== undefined),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
