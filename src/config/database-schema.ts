import { z } from 'zod';
import { numeric } from './model-record-schema.js';

/**
 * The database, and how long the gateway waits for it: without bounds a hung PostgreSQL server
 * holds every call that needs it (a key lookup) until the client gives up.
 */
export const databaseSchema = z
  .object({
    url: z.string().min(1),
    /** Time allowed to open a connection (PostgreSQL). */
    connect_timeout_ms: numeric(z.number().int().positive()).default(5_000),
    /** Time allowed for one query's answer (PostgreSQL). */
    query_timeout_ms: numeric(z.number().int().positive()).default(10_000),
  })
  .strict()
  .default({ url: 'sqlite:./data/switchyard.db', connect_timeout_ms: 5_000, query_timeout_ms: 10_000 });
