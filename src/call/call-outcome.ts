import type { Usage } from '../ir/usage.js';
import type { ChunkStream } from './commit-stream.js';

/** How a delivered call ended, for metering. */
export interface CallCompletion {
  /** Usage the upstream reported (undefined when it reported none). */
  readonly usage: Usage | undefined;
  /** False when the stream was cut short (client gone, upstream failed mid-stream). */
  readonly completed: boolean;
  readonly status: number;
  /**
   * What the client was sent, for a stream cut before the upstream's final usage arrived (or from
   * a server that never states it): the entry charges at least its output, marked estimated. It
   * is counted when the call is metered, after its stream ended, never while a client waits.
   */
  readonly deliveredOutput?: DeliveredOutput;
}

/** The output a stream handed its client, counted on demand. */
export interface DeliveredOutput {
  countTokens(): Promise<number>;
}

/**
 * A committed answer: nothing has been sent yet, but the upstream accepted the call, so no
 * fallback will happen any more. `completion` settles when the body is fully delivered or dropped.
 */
export interface CallOutcome {
  readonly contentType: string;
  readonly body: string | Uint8Array | ChunkStream;
  readonly completion: Promise<CallCompletion>;
  /**
   * The same completion when it is known as the answer is made (a whole answer): metering writes
   * the entry at once instead of waiting a turn of the event loop for `completion`.
   */
  readonly settled?: CallCompletion;
}
