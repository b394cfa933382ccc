import type { Kysely } from 'kysely';
import type { AuditEntry, AuditLog } from '../../keys/audit-log.js';
import type { StorageDatabase } from './database-schema.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import { readDate } from './sql-values.js';

export class KyselyAuditLog implements AuditLog {
  constructor(
    private readonly db: Kysely<StorageDatabase>,
    private readonly codec: SqlValueCodec,
  ) {}

  async append(entry: AuditEntry): Promise<void> {
    await this.db
      .insertInto('admin_audit')
      .values({
        id: entry.id,
        at: this.codec.writeTimestamp(entry.at),
        actor_key_id: entry.actorKeyId,
        action: entry.action,
        target_id: entry.targetId,
        details: JSON.stringify(entry.details),
      })
      .execute();
  }

  async list(query: { readonly limit: number; readonly before?: string }): Promise<{ entries: AuditEntry[]; hasMore: boolean }> {
    let select = this.db.selectFrom('admin_audit').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(query.limit + 1);
    if (query.before !== undefined) {
      const anchor = await this.db.selectFrom('admin_audit').select(['at', 'id']).where('id', '=', query.before).executeTakeFirst();
      if (anchor === undefined) return { entries: [], hasMore: false };
      select = select.where((where) =>
        where.or([where('at', '<', anchor.at), where.and([where('at', '=', anchor.at), where('id', '<', anchor.id)])]),
      );
    }
    const rows = await select.execute();
    const entries = rows.slice(0, query.limit).map((row) => ({
      id: row.id,
      at: readDate(row.at),
      actorKeyId: row.actor_key_id,
      action: row.action,
      targetId: row.target_id,
      details: JSON.parse(row.details) as Record<string, unknown>,
    }));
    return { entries, hasMore: rows.length > query.limit };
  }
}
