/**
 * The seconds a finished job is charged for: what the upstream confirms it rendered (or, where it
 * confirms nothing, the length it accepted), but never more than the file delivered holds. A
 * video's own header is the last word on what the client got; rounding forgives container slack.
 */
export function deliveredSeconds(asked: number, confirmed: number | undefined, measured: number | undefined): number {
  const claimed = confirmed !== undefined && Number.isFinite(confirmed) && confirmed > 0 ? Math.round(confirmed) : asked;
  if (measured === undefined || !Number.isFinite(measured)) return claimed;
  return Math.max(0, Math.min(claimed, Math.round(measured)));
}
