import { GatewayError } from '../errors/gateway-error.js';

/**
 * An upstream answer's body as it arrives: chunks are handed straight to whoever reads them, with
 * no Node stream or Web stream in between (each of those costs allocations and promise hops per
 * chunk, on every call). The transport pauses while too much is buffered and nobody reads.
 */
export class UpstreamBody {
  private readonly buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private ended = false;
  private failure: Error | undefined;
  private waiting: { resolve: () => void } | undefined;
  private consumed = false;
  private receivedBytes = 0;

  constructor(
    private readonly pause: () => void,
    private readonly resume: () => void,
    private readonly cancel: () => void,
    /** Past this many bytes in all, the body fails and the upstream call is dropped (an answer that never ends). */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** Called by the transport with each chunk. */
  push(chunk: Buffer): void {
    if (this.failure !== undefined) return;
    this.receivedBytes += chunk.length;
    if (this.receivedBytes > this.maxBytes) {
      this.buffered.length = 0;
      this.bufferedBytes = 0;
      this.fail(new GatewayError('upstream_answer_too_large', `The upstream's answer exceeded ${this.maxBytes} bytes.`));
      this.cancel();
      return;
    }
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    if (this.bufferedBytes > pauseAboveBytes && this.waiting === undefined) this.pause();
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.wake();
  }

  /** The whole body in one buffer. */
  async bytes(): Promise<Buffer> {
    this.claim();
    while (!this.ended) {
      if (this.failure !== undefined) throw this.failure;
      await this.nextSignal();
    }
    if (this.failure !== undefined) throw this.failure;
    return this.buffered.length === 1 ? (this.buffered[0] as Buffer) : Buffer.concat(this.buffered, this.bufferedBytes);
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  /** The body chunk by chunk; leaving the loop early cancels the upstream call. */
  chunks(): AsyncIterableIterator<Buffer> {
    this.claim();
    const next = async (): Promise<IteratorResult<Buffer, undefined>> => {
      for (;;) {
        const chunk = this.buffered.shift();
        if (chunk !== undefined) {
          this.bufferedBytes -= chunk.length;
          if (this.bufferedBytes <= pauseAboveBytes) this.resume();
          return { done: false, value: chunk };
        }
        if (this.failure !== undefined) throw this.failure;
        if (this.ended) return { done: true, value: undefined };
        await this.nextSignal();
      }
    };
    const iterator: AsyncIterableIterator<Buffer> = {
      next,
      return: async () => {
        if (!this.ended) this.cancel();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  private claim(): void {
    if (this.consumed) throw new Error('An upstream body can be read only once.');
    this.consumed = true;
  }

  private nextSignal(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting = { resolve };
      this.resume();
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve();
  }
}

/** Above this much unread body, the socket stops being read (stream relays to slow clients). */
const pauseAboveBytes = 1 << 20;
