import fs from 'node:fs';
import path from 'node:path';

/**
 * A run's ledger holds every call it made: about 0.8 GB for `limits.mjs` at 100 × 1 s, so a few runs
 * fill a small disk. It goes when the run ends, unless `KEEP_LEDGER=1` keeps it for a look.
 */
export function removeLedgerUnlessKept(outDir) {
  if (process.env.KEEP_LEDGER === '1') return;
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(outDir, `ledger.db${suffix}`), { force: true });
}
