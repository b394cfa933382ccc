import { GatewayError } from '../../errors/gateway-error.js';
import { asRecord, readNumber, readRecord, readString } from '../../json/json-value.js';
import type { SubmittedImageJob, UpstreamImageJobState } from '../../ir/index.js';
import type { UpstreamTarget } from '../provider-adapter.js';
import { bflResultUrl } from './bfl-endpoint.js';

/**
 * A submit's answer: `{ id, polling_url, cost?, input_mp?, output_mp? }`. The polling URL is kept as
 * given (it names the cluster holding the task); `output_mp`, what BFL bills the output as, is kept
 * for prices per megapixel.
 */
export function decodeBflSubmit(body: unknown, target: UpstreamTarget): SubmittedImageJob {
  const record = asRecord(body);
  const id = record === undefined ? undefined : readString(record, 'id');
  if (record === undefined || id === undefined || id === '') throw new GatewayError('upstream_invalid_response', 'BFL answered the submit without a task id.');
  const pollingUrl = readString(record, 'polling_url');
  const outputMegapixels = readNumber(record, 'output_mp');
  return {
    upstreamJobId: id,
    pollUrl: pollingUrl !== undefined && URL.canParse(pollingUrl) ? pollingUrl : bflResultUrl(target, id),
    ...(outputMegapixels !== undefined && outputMegapixels > 0 ? { billedMegapixels: decimalText(outputMegapixels) } : {}),
  };
}

/** A JSON number as plain decimal text (never `1e-7`), for exact arithmetic later. */
function decimalText(value: number): string {
  return value.toFixed(6).replace(/\.?0+$/, '');
}

/** Statuses BFL documents that end a task without an image, with what the client is told. */
function endedWithoutImage(status: string, reasons: string): GatewayError | undefined {
  switch (status) {
    case 'Request Moderated':
      return new GatewayError('upstream_client_error', `BFL's moderation refused the request before generating${reasons}.`, { status: 400, upstreamType: 'content_policy_violation' });
    case 'Content Moderated':
      return new GatewayError('upstream_client_error', `BFL's moderation withheld the generated image${reasons}.`, { status: 400, upstreamType: 'content_policy_violation' });
    case 'Task not found':
      return new GatewayError('upstream_error', 'BFL no longer knows the task (it does not exist or has expired).');
    case 'Error':
    case 'Failed':
      return new GatewayError('upstream_error', `BFL failed to generate the image${reasons}.`);
    default:
      return undefined;
  }
}

/** Moderation reasons BFL gives in `details`, when it gives them, for the client's message. */
function detailReasons(record: Readonly<Record<string, unknown>>): string {
  const details = readRecord(record, 'details');
  const reasons = details === undefined ? undefined : details['Moderation Reasons'];
  if (!Array.isArray(reasons)) return '';
  const named = reasons.filter((reason): reason is string => typeof reason === 'string');
  return named.length === 0 ? '' : ` (${named.join(', ')})`;
}

/**
 * A poll's answer: `Ready` with `result.sample` (a signed URL good for ten minutes, fetched at
 * once); `Pending` (and any status BFL may add that ends nothing) keeps polling; the moderation
 * statuses are content-policy refusals, BFL charges nothing for them and neither does the gateway;
 * `Error` and `Task not found` fail the call. Older answers name the status `state`.
 */
export function decodeBflPoll(body: unknown): UpstreamImageJobState {
  const record = asRecord(body);
  if (record === undefined) throw new GatewayError('upstream_invalid_response', 'BFL answered a poll with something other than a JSON object.');
  const status = readString(record, 'status') ?? readString(record, 'state') ?? '';
  const failure = endedWithoutImage(status, detailReasons(record));
  if (failure !== undefined) throw failure;
  if (status !== 'Ready') return { status: 'pending' };
  const result = readRecord(record, 'result');
  const sample = result === undefined ? undefined : readString(result, 'sample');
  if (sample === undefined || !URL.canParse(sample)) throw new GatewayError('upstream_invalid_response', 'BFL reported the task ready without an image URL.');
  return { status: 'ready', imageUrls: [sample] };
}
