/** Passes a stream of chunks on, counting its bytes and keeping the error it ends with, if any. */
export class CountedSource {
  bytes = 0;
  failure: unknown;

  constructor(private readonly source: AsyncIterable<Uint8Array>) {}

  async *chunks(): AsyncIterable<Uint8Array> {
    try {
      for await (const chunk of this.source) {
        this.bytes += chunk.byteLength;
        yield chunk;
      }
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }
}
