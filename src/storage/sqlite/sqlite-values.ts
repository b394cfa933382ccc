/**
 * How values the SQLite driver cannot bind are stored. Kept free of Kysely so the prepared-statement
 * paths can encode without loading it; the SQLite value codec uses these same functions.
 * Timestamps are `toISOString()` text: one fixed-width UTC format, so text order is time order
 * and the first ten characters are the UTC day.
 */
export function writeSqliteTimestamp(value: Date): string {
  const ms = value.getTime();
  const millisecond = ((ms % 1000) + 1000) % 1000;
  const second = ms - millisecond;
  // Every ledger entry is written with its time, and a batch's fall in a few seconds: the text up to
  // the second is formatted once a second (about a tenth of the cost of toISOString), the rest looked up.
  if (second !== lastSecond) {
    // An invalid date throws here, as toISOString does.
    const iso = value.toISOString();
    lastSecondText = iso.slice(0, -5);
    lastSecond = second;
  }
  return lastSecondText + millisecondSuffixes[millisecond]!;
}

let lastSecond = Number.NaN;
let lastSecondText = '';
/** `.000Z` … `.999Z`. */
const millisecondSuffixes = Array.from({ length: 1000 }, (_, millisecond) => `.${String(millisecond).padStart(3, '0')}Z`);

export function writeSqliteBoolean(value: boolean): number {
  return value ? 1 : 0;
}

export function readSqliteBoolean(value: unknown): boolean {
  return value === 1 || value === 1n || value === true;
}
