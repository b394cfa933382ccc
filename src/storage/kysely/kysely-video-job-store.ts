import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { VideoJobEnding, VideoJobListQuery, VideoJobProgressPatch, VideoJobRecord, VideoJobStatus, VideoJobStore } from '../../media/videos/video-job-store.js';
import type { StorageDatabase } from './database-schema.js';
import { appendLedgerEntries } from './append-ledger-entries.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import { videoJobColumns, videoJobFromRow, videoJobRow } from './video-job-row.js';

type Jobs = ExpressionBuilder<StorageDatabase, 'video_jobs'>;

const unfinished = ['queued', 'in_progress'];

/** One store for both dialects; only claiming differs (PostgreSQL skips rows another claimer holds). */
export class KyselyVideoJobStore implements VideoJobStore {
  constructor(
    private readonly db: Kysely<StorageDatabase>,
    private readonly codec: SqlValueCodec,
  ) {}

  async insert(job: VideoJobRecord): Promise<{ job: VideoJobRecord; created: boolean }> {
    // The unique (key, idempotency key) index arbitrates concurrent submits in any process.
    const result = await this.db.insertInto('video_jobs').values(videoJobRow(job, this.codec)).onConflict((conflict) => conflict.doNothing()).executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) return { job, created: true };
    const existing = await this.db
      .selectFrom('video_jobs')
      .select(videoJobColumns)
      .where('key_scope', '=', job.keyId ?? '')
      .where('idempotency_key', '=', job.idempotencyKey)
      .executeTakeFirst();
    if (existing === undefined) throw new Error(`video job ${job.id} was neither inserted nor found`);
    return { job: videoJobFromRow(existing), created: false };
  }

  async get(id: string): Promise<VideoJobRecord | undefined> {
    const row = await this.db.selectFrom('video_jobs').select(videoJobColumns).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    return row === undefined ? undefined : videoJobFromRow(row);
  }

  async list(query: VideoJobListQuery): Promise<{ jobs: VideoJobRecord[]; hasMore: boolean }> {
    const scope = query.keyId ?? '';
    let select = this.db.selectFrom('video_jobs').select(videoJobColumns).where('key_scope', '=', scope).where('deleted_at', 'is', null);
    if (query.after !== undefined) {
      const cursor = await this.db.selectFrom('video_jobs').select(['created_at', 'id']).where('id', '=', query.after).where('key_scope', '=', scope).executeTakeFirst();
      if (cursor === undefined) return { jobs: [], hasMore: false };
      const comparison = query.order === 'asc' ? '>' : '<';
      const createdAt = this.codec.writeTimestamp(new Date(cursor.created_at));
      select = select.where((jobs) =>
        jobs.or([jobs('created_at', comparison, createdAt), jobs.and([jobs('created_at', '=', createdAt), jobs('id', comparison, cursor.id)])]),
      );
    }
    const rows = await select.orderBy('created_at', query.order).orderBy('id', query.order).limit(query.limit + 1).execute();
    return { jobs: rows.slice(0, query.limit).map(videoJobFromRow), hasMore: rows.length > query.limit };
  }

  async claimDue(owner: string, now: Date, leaseUntil: Date, limit: number): Promise<VideoJobRecord[]> {
    const at = this.codec.writeTimestamp(now);
    const due = (jobs: Jobs): Expression<SqlBool> =>
      jobs.and([
        jobs('status', 'in', unfinished),
        jobs('deleted_at', 'is', null),
        jobs('next_poll_at', '<=', at),
        jobs.or([jobs('lease_owner', 'is', null), jobs('lease_expires_at', '<=', at)]),
      ]);
    const lease = { lease_owner: owner, lease_expires_at: this.codec.writeTimestamp(leaseUntil) };
    const candidates = this.db.selectFrom('video_jobs').select('id').where(due).orderBy('next_poll_at').limit(limit);
    if (this.codec.dialect === 'sqlite') {
      // SQLite has one writer at a time, so a single conditional UPDATE is already exclusive.
      const rows = await this.db.updateTable('video_jobs').set(lease).where('id', 'in', candidates).where(due).returning(videoJobColumns).execute();
      return rows.map(videoJobFromRow);
    }
    // Concurrent claimers pass over rows another has locked instead of waiting for them. The
    // locking pick is a materialised CTE, run once: inside `id IN (subquery)` the planner may
    // re-run it per row (a nested-loop semi-join) and each run can lock further rows, claiming
    // more than `limit`.
    const rows = await this.db
      .with((cte) => cte('picked').materialized(), () => candidates.forUpdate().skipLocked())
      .updateTable('video_jobs')
      .set(lease)
      .where('id', 'in', (jobs) => jobs.selectFrom('picked').select('picked.id'))
      .where(due)
      .returning(videoJobColumns)
      .execute();
    return rows.map(videoJobFromRow);
  }

  async updateLeased(id: string, owner: string, patch: VideoJobProgressPatch): Promise<boolean> {
    const { codec } = this;
    const greatest = codec.dialect === 'postgres' ? 'greatest' : 'max';
    const result = await this.db
      .updateTable('video_jobs')
      .set({
        ...(patch.upstreamJobId === undefined ? {} : { upstream_job_id: patch.upstreamJobId }),
        ...(patch.provider === undefined ? {} : { provider: patch.provider }),
        ...(patch.upstreamModel === undefined ? {} : { upstream_model: patch.upstreamModel }),
        ...(patch.status === undefined ? {} : { status: patch.status }),
        ...(patch.progress === undefined ? {} : { progress: sql<number>`${sql.raw(greatest)}(progress, ${Math.round(patch.progress)})` }),
        ...(patch.nextPollAt === undefined ? {} : { next_poll_at: codec.writeTimestamp(patch.nextPollAt) }),
        ...(patch.pollAttempts === undefined ? {} : { poll_attempts: patch.pollAttempts }),
        ...(patch.leaseExpiresAt === undefined ? {} : patch.leaseExpiresAt === null ? { lease_owner: null, lease_expires_at: null } : { lease_expires_at: codec.writeTimestamp(patch.leaseExpiresAt) }),
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', 'in', unfinished)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async finish(id: string, ending: VideoJobEnding, owner?: string): Promise<boolean> {
    const { codec } = this;
    return this.db.transaction().execute(async (transaction) => {
      let update = transaction
        .updateTable('video_jobs')
        .set({
          status: ending.status,
          ...(ending.status === 'completed' ? { progress: 100, completed_at: codec.writeTimestamp(ending.at) } : {}),
          error_code: ending.errorCode ?? null,
          error_message: ending.errorMessage ?? null,
          expires_at: ending.expiresAt === undefined ? null : codec.writeTimestamp(ending.expiresAt),
          delivered_seconds: ending.deliveredSeconds ?? null,
          cost_nano_usd: ending.costNanoUsd,
          contents: JSON.stringify(ending.contents ?? {}),
          lease_owner: null,
          lease_expires_at: null,
        })
        .where('id', '=', id)
        .where('status', 'in', unfinished);
      if (owner !== undefined) update = update.where('lease_owner', '=', owner);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      // The charge lands with the ending or not at all: one ledger entry per job, never a second.
      if (ending.ledgerEntry !== undefined) {
        await appendLedgerEntries(transaction, codec, [ending.ledgerEntry]);
      }
      return true;
    });
  }

  async listAll(query: { readonly limit: number; readonly before?: string; readonly status?: VideoJobStatus }): Promise<{ jobs: VideoJobRecord[]; hasMore: boolean }> {
    let select = this.db.selectFrom('video_jobs').select(videoJobColumns);
    if (query.status !== undefined) select = select.where('status', '=', query.status);
    if (query.before !== undefined) {
      const cursor = await this.db.selectFrom('video_jobs').select(['created_at', 'id']).where('id', '=', query.before).executeTakeFirst();
      if (cursor === undefined) return { jobs: [], hasMore: false };
      const createdAt = this.codec.writeTimestamp(new Date(cursor.created_at));
      select = select.where((jobs) => jobs.or([jobs('created_at', '<', createdAt), jobs.and([jobs('created_at', '=', createdAt), jobs('id', '<', cursor.id)])]));
    }
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
    return { jobs: rows.slice(0, query.limit).map(videoJobFromRow), hasMore: rows.length > query.limit };
  }

  async countByStatus(): Promise<Partial<Record<VideoJobStatus, number>>> {
    const rows = await this.db
      .selectFrom('video_jobs')
      .select(['status', sql<unknown>`count(*)`.as('jobs')])
      .where('deleted_at', 'is', null)
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.jobs)]));
  }

  async markDeleted(id: string, at: Date): Promise<VideoJobRecord | undefined> {
    return this.db.transaction().execute(async (transaction) => {
      const row = await transaction.selectFrom('video_jobs').select(videoJobColumns).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
      if (row === undefined) return undefined;
      const result = await transaction.updateTable('video_jobs').set({ deleted_at: this.codec.writeTimestamp(at) }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? videoJobFromRow(row) : undefined;
    });
  }
}
