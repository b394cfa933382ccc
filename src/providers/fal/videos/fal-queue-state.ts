import { GatewayError } from '../../../errors/gateway-error.js';
import type { UpstreamVideoState } from '../../../ir/video-generation.js';
import { asArray, asRecord, asString } from '../../../json/json-value.js';
import { readFalErrorBody } from '../fal-error-body.js';

/** A percentage a runner wrote in its logs (`Progress: 45%`), the last one given. */
function loggedPercent(logs: unknown): number | undefined {
  let found: number | undefined;
  for (const entry of asArray(logs)) {
    const match = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(asString(asRecord(entry)?.['message']) ?? '');
    if (match !== null) found = Math.min(100, Number(match[1]));
  }
  return found;
}

/**
 * A fal queue status (`IN_QUEUE` with its `queue_position`, `IN_PROGRESS` with the runner's logs,
 * `COMPLETED`). A queued request shows 0 % however far up the queue it is; a running one the last
 * percentage its logs gave, else the gateway's estimate. fal has no failed status: a request that
 * failed is `COMPLETED` too, and its result says so, so a completed request is `finished` and its
 * result read next.
 */
export function decodeFalQueueStatus(body: unknown): UpstreamVideoState {
  const record = asRecord(body);
  const status = asString(record?.['status']);
  if (status === 'IN_QUEUE') return { status: 'queued', progress: 0 };
  if (status === 'IN_PROGRESS') {
    const progress = loggedPercent(record?.['logs']);
    return progress === undefined ? { status: 'in_progress' } : { status: 'in_progress', progress };
  }
  if (status === 'COMPLETED') {
    // A completed status that already carries the request's error (as peers have met it) needs no result read.
    const error = asString(record?.['error']);
    if (error !== undefined && error !== '') return { status: 'failed', error: { code: asString(record?.['error_type']) ?? 'upstream_failed', message: error } };
    return { status: 'finished' };
  }
  throw new GatewayError('upstream_invalid_response', `The fal queue answered a status the gateway does not know: ${JSON.stringify(status ?? null)}.`);
}

/** The `detail` fal's result URL answers while the request has not finished (seen by peers polling it). */
const stillRunning = /still in progress|in queue/i;

/**
 * A fal result: the model's output (`{ video: { url } }`) or why there is none. A 4xx is the
 * request's own failure — a content-policy refusal is a 422 whose `detail[].type` is
 * `content_policy_violation` — ended failed with fal's reason; an output without a video too.
 */
export function decodeFalResult(status: number, body: unknown): Exclude<UpstreamVideoState, { status: 'finished' }> {
  if (status >= 400) {
    const error = readFalErrorBody(body);
    if (status === 400 && stillRunning.test(error.message ?? '')) return { status: 'in_progress' };
    const code = error.type === 'content_policy_violation' ? 'content_filtered' : (error.type ?? 'upstream_failed');
    return { status: 'failed', error: { code, message: error.message ?? `fal answered the result with HTTP ${status}.` } };
  }
  const record = asRecord(body) ?? {};
  const url = asString(asRecord(record['video'])?.['url']);
  // fal's output names no length: what is delivered is measured from the MP4 itself.
  if (url !== undefined && url !== '') return { status: 'completed', downloads: { video: url } };
  const failure = readFalErrorBody(record);
  if (failure.message !== undefined) return { status: 'failed', error: { code: failure.type ?? 'upstream_failed', message: failure.message } };
  return { status: 'failed', error: { code: 'upstream_no_output', message: 'fal finished the request without a video.' } };
}
