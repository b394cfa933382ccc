/** Most bytes read from an upstream after its client left: usage comes in the last few hundred. */
const maxBytesReadOn = 4 * 1024 * 1024;

/**
 * Reads what is left of an upstream stream after its client has gone, for what it says about the
 * call's cost (a stream states its usage at its end): chunk by chunk into `observe`, until
 * `enough()` says the figures are in, the body ends or fails, or a byte cap is reached. Time is
 * bounded by the caller, whose scope stops the upstream call (which fails the pending read).
 * The body is given up at the end, which cancels the upstream call if it is still running.
 * Resolves to whether the body ended: what a reader or decoder holds back until the end (an event
 * without its blank line, Gemini's final usage) is then still to be read.
 */
export async function readOnForUsage(chunks: AsyncIterator<Buffer>, observe: (chunk: Buffer) => void, enough: () => boolean): Promise<boolean> {
  let read = 0;
  try {
    while (!enough() && read < maxBytesReadOn) {
      const next = await chunks.next();
      if (next.done === true) return true;
      read += next.value.length;
      observe(next.value);
    }
  } catch {
    // Stopped at the end of the wait, or the upstream broke: what was read is all there is.
  } finally {
    await chunks.return?.().catch(() => undefined);
  }
  return false;
}
