/** Endpoint families written to the ledger; open-ended so new families need no port change. */
export type LedgerEndpoint = 'chat' | 'responses' | 'messages' | 'images' | 'videos' | (string & {});

export interface LedgerEntry {
  readonly requestId: string;
  readonly keyId: string | null;
  /** Public model id, as the client named it after alias resolution. */
  readonly model: string;
  readonly provider: string;
  readonly upstreamModel: string;
  readonly endpoint: LedgerEndpoint;
  /** HTTP status the client received. */
  readonly status: number;
  readonly inputUncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly reasoning: number;
  /** Images returned to the client; 0 for text calls. */
  readonly images: number;
  /** Whole seconds of video delivered; 0 for everything but a finished video job. */
  readonly videoSeconds: number;
  /** True when the upstream gave no usage and the gateway counted it. */
  readonly usageEstimated: boolean;
  readonly costNanoUsd: bigint;
  readonly createdAt: Date;
  readonly durationMs: number;
}

/** Every token the entry counts, for tokens-per-minute limits. */
export function entryTokens(entry: LedgerEntry): number {
  return entry.inputUncached + entry.cacheRead + entry.cacheWrite + entry.output + entry.reasoning;
}
