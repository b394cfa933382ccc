// A key's figures taken repetition by repetition against the unlimited key of the same repetition
// (bench/limits.mjs): on this VM the speed drifts between repetitions by more than the effect
// measured, and a pair of seconds run back to back cancels it.

/** The runs of one key of one mode (a build, or memory / redis). */
export function runsOf(runs, mode, key) {
  return runs.filter((entry) => entry.mode === mode && entry.key === key);
}

/** `compare(entry, unlimited)` for every repetition of `key` that has its unlimited key's run beside it. */
export function paired(runs, mode, key, compare) {
  const unlimitedByRep = new Map(runsOf(runs, mode, 'unlimited').map((entry) => [entry.rep, entry]));
  return runsOf(runs, mode, key).flatMap((entry) => {
    const unlimited = unlimitedByRep.get(entry.rep);
    return unlimited ? [compare(entry, unlimited)] : [];
  });
}

/** Each repetition's requests per second of `key` ÷ the unlimited key's. */
export function pairedRatios(runs, mode, key) {
  return paired(runs, mode, key, (entry, unlimited) => entry.rps / unlimited.rps);
}

/** The gateway CPU µs per request that `key` adds, repetition by repetition (the VM's speed moves both alike). */
export function pairedCpuAdded(runs, mode, key) {
  return paired(runs, mode, key, (entry, unlimited) => (entry.cpu_us_per_request ?? Number.NaN) - (unlimited.cpu_us_per_request ?? Number.NaN)).filter(Number.isFinite);
}
