import type { Kysely, Migration } from 'kysely';

/**
 * Adds `video_jobs.request_hash`: a digest of the request a job was submitted with, so that an
 * `Idempotency-Key` sent again with another request is refused in whichever instance receives it.
 * Jobs kept before it have none, and a retry of them is answered as before.
 */
export function videoRequestHashMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('video_jobs').addColumn('request_hash', 'text').execute();
    },
  };
}
