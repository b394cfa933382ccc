import { readOnForUsage } from '../upstream/read-on-for-usage.js';
import type { StreamedCallScope } from './streamed-call-scope.js';

/** What a relay does with the rest of an upstream stream its client left, read for the call's cost only. */
export interface ReadOn {
  /** A chunk read after the client left: nothing of it is sent. */
  observe(chunk: Buffer): void;
  /** Whether the figures are in, so nothing more need be read. */
  enough(): boolean;
  /** The body ended while it was read: what the relay's reader or decoder holds back until the end is read too. */
  bodyEnded(): void;
}

/**
 * The last step of a relay generator (from its `finally`). `handedOver` says the generator was
 * given up while a chunk was with the client's writer, which is how a client's leaving reaches
 * it: the upstream is then read on, within the scope's wait, for what the call costs. A client
 * that left while the next chunk was awaited has nothing left to read on (the stream ended or
 * failed since), but its scope still holds a wait timer. Either way the scope is stopped, so no
 * timer stays armed and the upstream call is over.
 */
export async function readOnIfClientLeft(scope: StreamedCallScope, chunks: AsyncIterator<Buffer>, handedOver: boolean, readOn: ReadOn): Promise<void> {
  if (handedOver) scope.clientLeft();
  if (!scope.clientHasLeft) return;
  if (handedOver && (await readOnForUsage(chunks, (chunk) => readOn.observe(chunk), () => readOn.enough()))) readOn.bodyEnded();
  scope.stop();
}
