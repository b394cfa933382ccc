import { GatewayError } from '../../errors/gateway-error.js';
import type { SubmittedVideoJob, UpstreamVideoState } from '../../ir/video-generation.js';
import { isRecord } from '../../json/json-value.js';

/**
 * "Consumers of this API should not expect updates more frequent than once every five seconds"
 * (Runway's tasks reference): polling faster only spends requests against the key's limits.
 */
const runwayPollAfterMs = 5_000;

/** Runway's `progress` is a fraction of 1 (peers that read it as a percent showed 0 or 1 %). */
function percent(progress: unknown): number | undefined {
  if (typeof progress !== 'number' || !Number.isFinite(progress) || progress < 0 || progress > 1) return undefined;
  // A hair added so 0.29 reads as 29, not as the 28.999… its float product is.
  return Math.floor(progress * 100 + 1e-9);
}

/**
 * A failed task: moderation (`SAFETY.INPUT.*`, `SAFETY.OUTPUT.*`) is a refusal the client should
 * not retry; anything else is Runway's failure. Runway advises against showing `failure` to users
 * bare, so it is put in context with its code.
 */
function failedTask(task: Readonly<Record<string, unknown>>): UpstreamVideoState {
  const code = task['failureCode'];
  const text = task['failure'];
  const failureCode = typeof code === 'string' && code !== '' ? code : undefined;
  const failure = typeof text === 'string' && text.trim() !== '' ? text.trim().replace(/\.+$/, '') : undefined;
  const refused = failureCode?.startsWith('SAFETY.') === true;
  const lead = refused ? "Runway's content moderation refused this video" : 'Runway could not make this video';
  const detail = [failureCode === undefined ? undefined : `(${failureCode})`, failure].filter((part) => part !== undefined).join(' ');
  return {
    status: 'failed',
    error: { code: refused ? 'content_filtered' : 'upstream_failed', message: `${lead}${detail === '' ? '' : `: ${detail}`}. Nothing was charged.` },
  };
}

/**
 * A task as `GET /v1/tasks/{id}` answers it. PENDING and THROTTLED (waiting for the account's
 * capacity) are queued, RUNNING is under way with its progress, SUCCEEDED names the output's URLs
 * (they expire within 24–48 hours, so the worker copies the video at once), FAILED and CANCELLED
 * end the job, free.
 */
export function decodeRunwayTask(body: unknown): UpstreamVideoState {
  const status = isRecord(body) ? body['status'] : undefined;
  if (!isRecord(body) || typeof status !== 'string') {
    throw new GatewayError('upstream_invalid_response', 'Runway answered with something that is not a task.');
  }
  switch (status) {
    case 'PENDING':
    case 'THROTTLED':
      return { status: 'queued', pollAfterMs: runwayPollAfterMs };
    case 'RUNNING': {
      const progress = percent(body['progress']);
      return { status: 'in_progress', pollAfterMs: runwayPollAfterMs, ...(progress === undefined ? {} : { progress }) };
    }
    case 'SUCCEEDED': {
      const output: unknown[] = Array.isArray(body['output']) ? (body['output'] as unknown[]) : [];
      const video = output.find((url): url is string => typeof url === 'string' && url !== '');
      if (video === undefined) return { status: 'failed', error: { code: 'upstream_no_output', message: 'Runway finished the task without a video. Nothing was charged.' } };
      return { status: 'completed', downloads: { video } };
    }
    case 'FAILED':
      return failedTask(body);
    case 'CANCELLED':
      return { status: 'failed', error: { code: 'cancelled', message: 'The task was cancelled at Runway before it finished. Nothing was charged.' } };
    default:
      throw new GatewayError('upstream_invalid_response', `Runway answered with a task in an unknown state (${status.slice(0, 40)}).`);
  }
}

/** A submit's answer: `{ id }` of the task (and, lately, its estimated cost in credits, not needed here). */
export function decodeRunwaySubmit(body: unknown): SubmittedVideoJob {
  const id = isRecord(body) ? body['id'] : undefined;
  if (typeof id !== 'string' || id === '') throw new GatewayError('upstream_invalid_response', 'Runway accepted the video without naming its task.');
  return { upstreamJobId: id, state: { status: 'queued' } };
}
