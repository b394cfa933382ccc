import type { ReceivedRequest } from './received-request.js';
import type { Reply } from './reply.js';

/** One stream an upstream answers with: its SSE events and where its usage-bearing tail starts. */
export interface PacedStream {
  readonly events: readonly string[];
  /** Index of the first event of the tail that states the call's usage (sent last). */
  readonly usageTailAt: number;
}

/**
 * A script that streams recorded events one by one, `gapMs` apart, chosen by request path. A
 * request whose text contains `withhold` gets every event up to the usage-bearing tail and then
 * nothing more, the connection held open (an upstream that never states its usage in time); any
 * other gets the whole stream.
 */
export function pacedStreams(streams: Readonly<Record<string, PacedStream>>, gapMs: number): (request: ReceivedRequest) => Reply {
  return (request) => {
    const stream = streams[request.path];
    if (stream === undefined) return { status: 404, body: '{"error":{"message":"no stream for this path"}}' };
    if (request.body.includes('withhold')) return { pieces: stream.events.slice(0, stream.usageTailAt), gapMs, afterPieces: 'hang' };
    return { pieces: stream.events, gapMs };
  };
}

/** When the connection of the request marked `case=<caseId>` in its text closed before its answer was over. */
export function caseClosedEarlyAt(requests: readonly ReceivedRequest[], caseId: string): number | undefined {
  return requests.find((request) => /case=([\w-]+)/.exec(request.body)?.[1] === caseId)?.answer.closedEarlyAt;
}
