/** A pause inside a body's pieces: `pauseMs` of silence before the next piece (Infinity: never). */
export interface Pause {
  readonly pauseMs: number;
}

export const pause = (pauseMs: number): Pause => ({ pauseMs });

/** An HTTP answer, written as scripted: at once, or piece by piece with pacing. */
export interface AnswerReply {
  readonly status?: number;
  /** `text/event-stream` when there are pieces, `application/json` otherwise, unless given. */
  readonly contentType?: string;
  /** Further response headers (a redirect's `location`, `retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The whole body, sent at once. */
  readonly body?: string | Buffer;
  /** Body pieces sent one by one, as given (so a piece may cut an event or a character); any iterable, so a huge body can be generated as it goes. */
  readonly pieces?: Iterable<string | Buffer | Pause>;
  /** Silence between two pieces. */
  readonly gapMs?: number;
  /** Silence before the headers (Infinity: no answer at all, the connection held open). */
  readonly delayMs?: number;
  /** What happens once the pieces are sent: the answer ends (default), the connection is reset, or it hangs open and silent. */
  readonly afterPieces?: 'end' | 'reset' | 'hang';
}

/** The request is forwarded to another server (the provider simulator) and its answer relayed back as it streams. */
export interface RelayReply {
  readonly relayTo: string;
}

/** The connection is dropped before a single byte of an answer. */
export interface ResetReply {
  readonly reset: true;
}

export type Reply = AnswerReply | RelayReply | ResetReply;

export const json = (body: unknown, status = 200): AnswerReply => ({ status, body: typeof body === 'string' ? body : JSON.stringify(body) });
