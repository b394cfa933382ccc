/**
 * Turns a chunk generator into a response body once its first chunk exists. Anything the generator
 * throws before its first chunk rejects the returned promise, so the caller can still answer with
 * an HTTP error or fall back to another route; after that, the generator reports failures in-band.
 */
export async function commitOnFirstChunk(
  chunks: AsyncGenerator<Uint8Array, void, void>,
  onFinish: (completed: boolean) => void,
  onCancel: () => void,
): Promise<ReadableStream<Uint8Array>> {
  const first = await chunks.next();
  let pending: Uint8Array | undefined = first.done ? undefined : first.value;
  let done = first.done === true;
  let settled = false;
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
          const next = await chunks.next();
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
