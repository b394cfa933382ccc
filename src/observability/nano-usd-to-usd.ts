const nanoPerUsd = 1_000_000_000n;

/**
 * Nano-USD as a float number of dollars, for a Prometheus counter (which only holds floats): the
 * float nearest to the exact decimal amount, read from its decimal text, so no rounding error is
 * added on the way, even for amounts past 2^53 nano-USD (about 9 million dollars).
 */
export function nanoUsdToUsd(nanoUsd: bigint): number {
  const negative = nanoUsd < 0n;
  const magnitude = negative ? -nanoUsd : nanoUsd;
  const fraction = (magnitude % nanoPerUsd).toString().padStart(9, '0');
  return Number(`${negative ? '-' : ''}${magnitude / nanoPerUsd}.${fraction}`);
}
