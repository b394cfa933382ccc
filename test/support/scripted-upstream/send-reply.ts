import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ReceivedRequest } from './received-request.js';
import type { AnswerReply, Pause, Reply } from './reply.js';

/** Writes `reply` to the gateway, noting in `received.answer` every byte that went out. */
export function sendReply(reply: Reply, received: ReceivedRequest, incoming: IncomingMessage, outgoing: ServerResponse): void {
  const timers: NodeJS.Timeout[] = [];
  outgoing.on('close', () => {
    timers.forEach(clearTimeout);
    received.answer.endedAt = Date.now();
    if (!received.answer.complete) received.answer.closedEarlyAt = received.answer.endedAt;
  });
  outgoing.on('finish', () => (received.answer.complete = true));
  // A gateway that leaves mid-answer makes later writes fail; that is the scenario, not an error.
  outgoing.on('error', () => undefined);
  const write = (piece: string | Buffer): boolean => {
    received.answer.body += typeof piece === 'string' ? piece : piece.toString('utf8');
    if (isBinary(received.answer.contentType)) received.answer.bytes.push(Buffer.from(piece));
    return outgoing.write(piece);
  };
  if ('reset' in reply) {
    incoming.socket.destroy();
    return;
  }
  if ('relayTo' in reply) {
    relay(reply.relayTo, received, outgoing, write);
    return;
  }
  const start = (): void => startAnswer(reply, received, incoming, outgoing, write, timers);
  if (reply.delayMs === undefined) start();
  // Infinity holds the answer until the gateway gives up on it.
  else if (Number.isFinite(reply.delayMs)) timers.push(setTimeout(start, reply.delayMs));
}

function startAnswer(reply: AnswerReply, received: ReceivedRequest, incoming: IncomingMessage, outgoing: ServerResponse, write: (piece: string | Buffer) => boolean, timers: NodeJS.Timeout[]): void {
  const status = reply.status ?? 200;
  const contentType = reply.contentType ?? (reply.pieces === undefined ? 'application/json' : 'text/event-stream');
  received.answer.status = status;
  received.answer.contentType = contentType;
  outgoing.writeHead(status, { 'content-type': contentType, ...reply.headers });
  if (reply.pieces === undefined) {
    if (reply.body !== undefined) write(reply.body);
    outgoing.end();
    return;
  }
  const pieces = reply.pieces[Symbol.iterator]();
  const after = (): void => {
    if (reply.afterPieces === 'hang') return;
    if (reply.afterPieces === 'reset') timers.push(setTimeout(() => incoming.socket.destroy(), 20));
    else outgoing.end();
  };
  const later = (next: () => void, ms: number | undefined): void => {
    if (ms === undefined || ms === 0) setImmediate(next);
    else if (Number.isFinite(ms)) timers.push(setTimeout(next, ms));
  };
  const writeNext = (): void => {
    if (outgoing.destroyed) return;
    const step = pieces.next();
    if (step.done === true) return after();
    const piece = step.value;
    if (isPause(piece)) return later(writeNext, piece.pauseMs);
    // A gateway that reads slowly is waited for, so a huge body never piles up in memory.
    if (write(piece)) later(writeNext, reply.gapMs);
    else outgoing.once('drain', () => later(writeNext, reply.gapMs));
  };
  writeNext();
}

function relay(target: string, received: ReceivedRequest, outgoing: ServerResponse, write: (piece: string | Buffer) => boolean): void {
  const url = new URL(target);
  const relayed = httpRequest({ host: url.hostname, port: url.port, method: received.method, path: received.path, headers: received.headers }, (answer) => {
    received.answer.status = answer.statusCode ?? 502;
    received.answer.contentType = answer.headers['content-type'];
    outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.on('data', (chunk: Buffer) => {
      if (!write(chunk)) {
        answer.pause();
        outgoing.once('drain', () => answer.resume());
      }
    });
    answer.on('end', () => outgoing.end());
  });
  relayed.on('error', () => outgoing.destroy());
  // A gateway killed mid-call: the relayed answer stops too.
  outgoing.on('close', () => relayed.destroy());
  relayed.end(received.rawBody);
}

/** An answer whose bytes are not text: neither `text/…` nor JSON. */
function isBinary(contentType: string | undefined): boolean {
  return contentType !== undefined && !/^text\/|json|^application\/text/.test(contentType);
}

function isPause(piece: string | Buffer | Pause): piece is Pause {
  return typeof piece === 'object' && !Buffer.isBuffer(piece);
}
