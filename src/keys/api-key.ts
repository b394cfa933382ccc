/** What a key may call; `null` means "everything", an empty list means "nothing". */
export interface ApiKeyScopes {
  readonly endpoints: readonly string[] | null;
  readonly models: readonly string[] | null;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  /** The first characters of the key, safe to show in lists so an operator can recognise it. */
  readonly prefix: string;
  /** Hex SHA-256 of the full key; the key itself is never stored. */
  readonly hash: string;
  readonly scopes: ApiKeyScopes;
  /** May call `/admin` (and every `/v1` endpoint and model). */
  readonly admin: boolean;
  /** Spending cap over the key's whole life in nano-USD (1e-9 USD); `null` means unlimited. */
  readonly budgetNanoUsd: bigint | null;
  /** Spending cap per UTC day, nano-USD. */
  readonly dailyBudgetNanoUsd: bigint | null;
  /** Spending cap per UTC calendar month, nano-USD. */
  readonly monthlyBudgetNanoUsd: bigint | null;
  /** Requests per minute; `null` means no key-specific limit. */
  readonly rpm: number | null;
  /** Tokens per minute, charged from the usage upstreams report. */
  readonly tpm: number | null;
  /** Calls in flight at once (a stream counts until it ends). */
  readonly concurrency: number | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly expiresAt: Date | null;
  /** Recorded off the request path, so it may lag by a few seconds. */
  readonly lastUsedAt: Date | null;
  /** After a rotation, the old secret's hash, valid until `previousHashExpiresAt`. */
  readonly previousHash: string | null;
  readonly previousHashExpiresAt: Date | null;
}

/** What an operator may change on a key; absent fields stay as they are, `null` clears. */
export interface ApiKeyChanges {
  readonly name?: string;
  readonly scopes?: Partial<ApiKeyScopes>;
  readonly budgetNanoUsd?: bigint | null;
  readonly dailyBudgetNanoUsd?: bigint | null;
  readonly monthlyBudgetNanoUsd?: bigint | null;
  readonly rpm?: number | null;
  readonly tpm?: number | null;
  readonly concurrency?: number | null;
  readonly expiresAt?: Date | null;
}
