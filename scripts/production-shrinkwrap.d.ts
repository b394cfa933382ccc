/** Types of production-shrinkwrap.js, for its tests. */
export interface LockFile {
  readonly packages: Record<string, Record<string, unknown>>;
  readonly [field: string]: unknown;
}
export declare function productionShrinkwrap(lock: LockFile): LockFile;
export declare function shrinkwrapPaths(root: string): { lock: string; saved: string };
export declare function pruneShrinkwrap(root: string): void;
export declare function restoreShrinkwrap(root: string): void;
