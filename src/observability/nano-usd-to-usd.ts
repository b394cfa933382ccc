const nanoPerUsd = 1_000_000_000n;

/**
 * Nano-USD as a float number of dollars, for a Prometheus counter (which only holds floats).
 * Whole dollars and the fraction are converted apart, so the result is as exact as a float can
 * hold even for totals past 2^53 nano-USD (about 9 million dollars).
 */
export function nanoUsdToUsd(nanoUsd: bigint): number {
  const whole = nanoUsd / nanoPerUsd;
  const fraction = nanoUsd % nanoPerUsd;
  return Number(whole) + Number(fraction) / 1e9;
}
