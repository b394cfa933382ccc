/** Types of quick-table.mjs, for its tests. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}
export interface QuickRun {
  target: 'gateway' | 'nodeproxy';
  scenario: string;
  rep: number;
  [field: string]: unknown;
}
export interface QuickResults {
  meta: Record<string, unknown>;
  settings: { concurrency: number; streamConcurrency: number; reps: number; duration: number; warmup: number };
  availability?: Record<string, string>;
  idle?: Record<string, number | undefined>;
  start?: { starts: { ms: number | null; kb: number | null }[] } | null;
  runs: QuickRun[];
  aborted?: string;
}
export interface QuickRow {
  figure: string;
  digits: number;
  gateway: Spread | null;
  proxy: Spread | null;
  relation: null | { kind: 'ratio' | 'added'; unit: string; digits: number; spread: Spread | null };
}
export declare const busyForeignPercent: number;
export declare function spreadOf(values: readonly unknown[]): Spread | null;
export declare function formatSpread(spread: Spread | null, digits: number, sign?: boolean): string;
export declare function quickRows(results: QuickResults): QuickRow[];
export declare function foreignCpu(results: QuickResults): Spread | null;
export declare function renderQuickTable(results: QuickResults): string;
