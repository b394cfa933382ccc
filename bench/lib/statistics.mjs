// A run's median, and how far it can be trusted: a percentile bootstrap of the median, with a fixed
// seed so the same results give the same interval.

/** A small deterministic generator (mulberry32): the interval must not change between two reads of one file. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The middle value (the upper one of an even count): what every table of these benches reports. */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The lower and upper quartiles: where the middle half of the values lies. */
export function quartiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return [0.25, 0.75].map((quantile) => sorted[Math.floor(quantile * (sorted.length - 1))]);
}

/** The 95 % interval of the median of `values`, from `resamples` resamples drawn with replacement. */
export function medianInterval(values, resamples = 2000) {
  if (values.length === 0) return [Number.NaN, Number.NaN];
  const random = seededRandom(values.length * 7919);
  const medians = [];
  for (let round = 0; round < resamples; round += 1) medians.push(median(values.map(() => values[Math.floor(random() * values.length)])));
  medians.sort((a, b) => a - b);
  return [medians[Math.floor(0.025 * (resamples - 1))], medians[Math.ceil(0.975 * (resamples - 1))]];
}
