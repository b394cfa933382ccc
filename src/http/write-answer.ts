import type { ServerResponse } from 'node:http';
import type { GatewayAnswer } from './gateway-answer.js';

/**
 * Writes an answer to Node's response. A streamed body is written chunk by chunk as it is pulled,
 * waiting for the socket to drain when the client reads slowly; when the client goes away the
 * stream is given up (`return()`), which cancels the upstream call behind it.
 */
export async function writeAnswer(outgoing: ServerResponse, answer: GatewayAnswer): Promise<void> {
  const { body } = answer;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const headers = answer.headers;
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    outgoing.writeHead(answer.status, headers);
    outgoing.end(body);
    return;
  }
  outgoing.writeHead(answer.status, answer.headers);
  // Headers go out with the first chunk, in one write.
  try {
    for (;;) {
      const next = await body.next();
      if (next.done) break;
      if (outgoing.destroyed) {
        await body.return(undefined);
        return;
      }
      if (!outgoing.write(next.value)) await drained(outgoing);
    }
  } catch {
    // The stream failed after its headers went out: all that is left is to cut the connection.
    outgoing.destroy();
    return;
  }
  outgoing.end();
}

function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.on('drain', done);
    outgoing.on('close', done);
  });
}
