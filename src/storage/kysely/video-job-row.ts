import { sql, type SelectExpression } from 'kysely';
import type { VideoJobContentVariant, VideoJobRecord, VideoJobStatus } from '../../media/videos/video-job-store.js';
import type { StorageDatabase } from './database-schema.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import { readBigInt, readDate, readNullableBigInt, readNullableDate, readNullableNumber, readNumber } from './sql-values.js';

type JobSelection = SelectExpression<StorageDatabase, 'video_jobs'>;

const plainColumns = [
  'id',
  'key_id',
  'idempotency_key',
  'request_hash',
  'model',
  'provider',
  'upstream_model',
  'upstream_job_id',
  'prompt',
  'mode',
  'resolution',
  'aspect_ratio',
  'size',
  'seconds',
  'remixed_from_video_id',
  'status',
  'progress',
  'error_code',
  'error_message',
  'created_at',
  'completed_at',
  'expires_at',
  'deadline_at',
  'next_poll_at',
  'poll_attempts',
  'lease_owner',
  'lease_expires_at',
  'delivered_seconds',
  'contents',
  'deleted_at',
] as const;

/**
 * Every column of a job; money read as text, so no driver passes it through a float (SQLite hands
 * back numbers, which lose exactness beyond 2^53).
 */
export const videoJobColumns: readonly JobSelection[] = [
  ...plainColumns,
  sql<string>`cast(price_per_second_pico_usd as text)`.as('price_per_second_pico_usd'),
  sql<string | null>`cast(cost_nano_usd as text)`.as('cost_nano_usd'),
];

type Row = Record<string, unknown>;

function readContents(value: unknown): Partial<Record<VideoJobContentVariant, string>> {
  if (typeof value !== 'string') return {};
  const parsed: unknown = JSON.parse(value);
  if (parsed === null || typeof parsed !== 'object') return {};
  const contents: Partial<Record<VideoJobContentVariant, string>> = {};
  for (const [variant, key] of Object.entries(parsed as Record<string, unknown>)) {
    if ((variant === 'video' || variant === 'thumbnail' || variant === 'spritesheet') && typeof key === 'string') contents[variant] = key;
  }
  return contents;
}

const text = (value: unknown): string => String(value);
const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function videoJobFromRow(row: Row): VideoJobRecord {
  return {
    id: text(row['id']),
    keyId: nullableText(row['key_id']),
    idempotencyKey: nullableText(row['idempotency_key']),
    requestHash: nullableText(row['request_hash']),
    model: text(row['model']),
    provider: text(row['provider']),
    upstreamModel: text(row['upstream_model']),
    upstreamJobId: nullableText(row['upstream_job_id']),
    prompt: text(row['prompt']),
    mode: text(row['mode']),
    resolution: text(row['resolution']),
    aspectRatio: text(row['aspect_ratio']),
    size: text(row['size']),
    seconds: readNumber(row['seconds']),
    remixedFromVideoId: nullableText(row['remixed_from_video_id']),
    pricePerSecondPicoUsd: readBigInt(row['price_per_second_pico_usd']),
    status: text(row['status']) as VideoJobStatus,
    progress: readNumber(row['progress']),
    errorCode: nullableText(row['error_code']),
    errorMessage: nullableText(row['error_message']),
    createdAt: readDate(row['created_at']),
    completedAt: readNullableDate(row['completed_at']),
    expiresAt: readNullableDate(row['expires_at']),
    deadlineAt: readDate(row['deadline_at']),
    nextPollAt: readDate(row['next_poll_at']),
    pollAttempts: readNumber(row['poll_attempts']),
    leaseOwner: nullableText(row['lease_owner']),
    leaseExpiresAt: readNullableDate(row['lease_expires_at']),
    deliveredSeconds: readNullableNumber(row['delivered_seconds']),
    costNanoUsd: readNullableBigInt(row['cost_nano_usd']),
    contents: readContents(row['contents']),
    deletedAt: readNullableDate(row['deleted_at']),
  };
}

export function videoJobRow(job: VideoJobRecord, codec: SqlValueCodec) {
  const timestamp = (date: Date | null): Date | string | null => (date === null ? null : codec.writeTimestamp(date));
  return {
    id: job.id,
    key_id: job.keyId,
    key_scope: job.keyId ?? '',
    idempotency_key: job.idempotencyKey,
    request_hash: job.requestHash,
    model: job.model,
    provider: job.provider,
    upstream_model: job.upstreamModel,
    upstream_job_id: job.upstreamJobId,
    prompt: job.prompt,
    mode: job.mode,
    resolution: job.resolution,
    aspect_ratio: job.aspectRatio,
    size: job.size,
    seconds: job.seconds,
    remixed_from_video_id: job.remixedFromVideoId,
    price_per_second_pico_usd: job.pricePerSecondPicoUsd,
    status: job.status,
    progress: job.progress,
    error_code: job.errorCode,
    error_message: job.errorMessage,
    created_at: codec.writeTimestamp(job.createdAt),
    completed_at: timestamp(job.completedAt),
    expires_at: timestamp(job.expiresAt),
    deadline_at: codec.writeTimestamp(job.deadlineAt),
    next_poll_at: codec.writeTimestamp(job.nextPollAt),
    poll_attempts: job.pollAttempts,
    lease_owner: job.leaseOwner,
    lease_expires_at: timestamp(job.leaseExpiresAt),
    delivered_seconds: job.deliveredSeconds,
    cost_nano_usd: job.costNanoUsd,
    contents: JSON.stringify(job.contents),
    deleted_at: timestamp(job.deletedAt),
  };
}
