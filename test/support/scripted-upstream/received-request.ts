import type { IncomingHttpHeaders } from 'node:http';

/** What the upstream sent back, filled in as it goes out. */
export interface SentAnswer {
  status: number | undefined;
  contentType: string | undefined;
  /** Every byte written so far, as UTF-8 text. */
  body: string;
  /**
   * Every byte written so far, kept only for an answer that is not text (AWS's binary event
   * stream), whose frame lengths and checksums UTF-8 text cannot hold faithfully.
   */
  bytes: Buffer[];
  /** The last byte was written and the answer ended. */
  complete: boolean;
  /** When the connection closed before the answer was complete (the gateway left, or a scripted fault). */
  closedEarlyAt: number | undefined;
  /** When the exchange was over, answered in full or not; undefined while it is in flight. */
  endedAt: number | undefined;
}

/** One request the upstream received, in full, and what it answered. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body as UTF-8 text. */
  readonly body: string;
  readonly rawBody: Buffer;
  /** When the whole request had arrived. */
  readonly receivedAt: number;
  readonly answer: SentAnswer;
}
