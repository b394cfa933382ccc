/** Types of build-if-stale.js, for its tests. */
export declare const buildInputs: { readonly folders: readonly string[]; readonly files: readonly string[] };
export declare const buildProducts: readonly string[];
export declare function buildStaleness(root: string): { stale: boolean; reason: string };
export declare function portTakenByNpm(environment: Readonly<Record<string, string | undefined>>): string | undefined;
