/** One administrative action, as `/admin/audit` shows it. */
export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  /** The admin key that acted; null for the command line. */
  readonly actorKeyId: string | null;
  /** e.g. `key.create`, `key.update`, `key.revoke`, `key.rotate`. */
  readonly action: string;
  readonly targetId: string | null;
  /** What changed, never a secret. */
  readonly details: Readonly<Record<string, unknown>>;
}

export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** Newest first; `before` is an entry id to page from. */
  list(query: { readonly limit: number; readonly before?: string }): Promise<{ readonly entries: AuditEntry[]; readonly hasMore: boolean }>;
}
