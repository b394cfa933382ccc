/** Bytes a format's clients accept as a keep-alive, and how long a silence lasts before one is sent. */
export interface KeepAlive {
  readonly bytes: Uint8Array;
  readonly afterMs: number;
}

/** A committed stream's chunks, pulled by whoever sends them; `return()` gives up on the rest. */
export type ChunkStream = AsyncGenerator<Uint8Array, void, void>;

/**
 * Waits for a chunk generator's first chunk, then hands the stream over. Anything the generator
 * throws before its first chunk rejects the returned promise, so the caller can still answer with
 * an HTTP error or fall back to another route; after that, the generator reports failures in-band.
 * While the upstream is silent for longer than `keepAlive.afterMs`, keep-alives are sent so that
 * clients and proxies do not give up on a slow model.
 */
export async function commitOnFirstChunk(
  chunks: ChunkStream,
  onFinish: (completed: boolean) => void,
  onCancel: () => void,
  keepAlive?: KeepAlive,
): Promise<ChunkStream> {
  const first = await chunks.next();
  return committedStream(first, chunks, onFinish, onCancel, keepAlive);
}

async function* committedStream(
  first: IteratorResult<Uint8Array, void>,
  chunks: ChunkStream,
  onFinish: (completed: boolean) => void,
  onCancel: () => void,
  keepAlive: KeepAlive | undefined,
): ChunkStream {
  let completed = first.done === true;
  try {
    if (completed) return;
    yield first.value as Uint8Array;
    if (keepAlive === undefined) {
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        yield next.value;
      }
    } else {
      /** A `next()` still running when a keep-alive was sent instead; the next round awaits it. */
      let inFlight: Promise<IteratorResult<Uint8Array, void>> | undefined;
      for (;;) {
        inFlight ??= chunks.next();
        const next = await raceWithSilence(inFlight, keepAlive.afterMs);
        if (next === 'silence') {
          yield keepAlive.bytes;
          continue;
        }
        inFlight = undefined;
        if (next.done) break;
        yield next.value;
      }
    }
    completed = true;
  } finally {
    if (!completed) {
      // The client went away or the stream failed: stop the upstream call and release the generator.
      onCancel();
      await chunks.return(undefined).catch(() => undefined);
    }
    onFinish(completed);
  }
}

function raceWithSilence<T>(promise: Promise<T>, afterMs: number): Promise<T | 'silence'> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<'silence'>((resolve) => {
    timer = setTimeout(() => resolve('silence'), afterMs);
  });
  return Promise.race([promise, silence]).finally(() => clearTimeout(timer));
}
