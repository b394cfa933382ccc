/** Until a job is done its progress stays below 100, whatever is reported or estimated. */
const ceiling = 99;

/**
 * Progress for an upstream that reports none (Veo): rises with the time since submit along
 * 1 − e^(−t/expected), so it moves quickly at first and never reaches the ceiling by itself.
 */
export function estimatedProgress(elapsedMs: number, expectedMs: number): number {
  if (elapsedMs <= 0) return 0;
  return Math.min(ceiling, Math.floor(100 * (1 - Math.exp(-elapsedMs / expectedMs))));
}

/** What an unfinished job shows: the upstream's figure when it gives one, else the estimate; never 100. */
export function unfinishedProgress(reported: number | undefined, elapsedMs: number, expectedMs: number): number {
  if (reported === undefined || !Number.isFinite(reported)) return estimatedProgress(elapsedMs, expectedMs);
  return Math.max(0, Math.min(ceiling, Math.floor(reported)));
}
