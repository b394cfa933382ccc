/** Bytes a format's clients accept as a keep-alive, and how long a silence lasts before one is sent. */
export interface KeepAlive {
  readonly bytes: Uint8Array;
  readonly afterMs: number;
}

/**
 * Turns a chunk generator into a response body once its first chunk exists. Anything the generator
 * throws before its first chunk rejects the returned promise, so the caller can still answer with
 * an HTTP error or fall back to another route; after that, the generator reports failures in-band.
 * While the upstream is silent for longer than `keepAlive.afterMs`, keep-alives are sent so that
 * clients and proxies do not give up on a slow model.
 */
export async function commitOnFirstChunk(
  chunks: AsyncGenerator<Uint8Array, void, void>,
  onFinish: (completed: boolean) => void,
  onCancel: () => void,
  keepAlive?: KeepAlive,
): Promise<ReadableStream<Uint8Array>> {
  const first = await chunks.next();
  let pending: Uint8Array | undefined = first.done ? undefined : first.value;
  let done = first.done === true;
  let settled = false;
  /** A `next()` still running when a keep-alive was sent instead; the next pull awaits it. */
  let inFlight: Promise<IteratorResult<Uint8Array, void>> | undefined;
  const settle = (completed: boolean): void => {
    if (settled) return;
    settled = true;
    onFinish(completed);
  };
  if (done) settle(true);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending !== undefined) {
          controller.enqueue(pending);
          pending = undefined;
          return;
        }
        if (done) {
          controller.close();
          return;
        }
        try {
          inFlight ??= chunks.next();
          const next = keepAlive === undefined ? await inFlight : await raceWithSilence(inFlight, keepAlive.afterMs);
          if (next === 'silence') {
            controller.enqueue((keepAlive as KeepAlive).bytes);
            return;
          }
          inFlight = undefined;
          if (next.done) {
            done = true;
            settle(true);
            controller.close();
          } else {
            controller.enqueue(next.value);
          }
        } catch (error) {
          settle(false);
          controller.error(error);
        }
      },
      async cancel() {
        // The client went away: stop the upstream call and release the generator's resources.
        onCancel();
        settle(false);
        await chunks.return(undefined).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

function raceWithSilence<T>(promise: Promise<T>, afterMs: number): Promise<T | 'silence'> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<'silence'>((resolve) => {
    timer = setTimeout(() => resolve('silence'), afterMs);
  });
  return Promise.race([promise, silence]).finally(() => clearTimeout(timer));
}
