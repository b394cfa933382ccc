import { GatewayError } from '../../../errors/gateway-error.js';
import type { UpstreamVideoState } from '../../../ir/video-generation.js';
import { isRecord } from '../../../json/json-value.js';

/** A prediction's statuses (replicate-javascript's `Status`); `aborted` is a deadline that passed before it started. */
const statuses = new Set(['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted']);

/** Models word a safety refusal their own way ("NSFW content detected", E005 "flagged as sensitive"). */
const refusalPattern = /nsfw|sensitive|flagged|safety|content polic|moderat/i;

/** `output` is one URI for video models, a list of them for models with several outputs. */
function firstOutputUrl(output: unknown): string | undefined {
  if (typeof output === 'string' && output !== '') return output;
  if (Array.isArray(output)) return output.find((item): item is string => typeof item === 'string' && item !== '');
  return undefined;
}

/** A tqdm progress line (` 45%|████▌     | 9/20 [00:04<00:05]`), as replicate-javascript's `parseProgressFromLogs` reads it. */
const progressLine = /^\s*(\d+)%\s*\|.+?\|\s*(\d+)\/(\d+)/;

/** The last progress bar in the logs, as a percentage; undefined when the model prints none. */
function progressFromLogs(logs: unknown): number | undefined {
  if (typeof logs !== 'string') return undefined;
  for (const line of logs.split('\n').reverse()) {
    const match = progressLine.exec(line);
    if (match !== null) return Math.min(100, Number(match[1]));
  }
  return undefined;
}

function failure(error: unknown): UpstreamVideoState {
  const message = typeof error === 'string' && error.trim() !== '' ? error.trim() : 'The model failed without saying why.';
  return { status: 'failed', error: { code: refusalPattern.test(message) ? 'content_filtered' : 'upstream_failed', message } };
}

export interface DecodedPrediction {
  readonly id: string;
  readonly state: UpstreamVideoState;
}

/**
 * A prediction object's state: `starting` is queued (booting or waiting for a worker),
 * `processing` is running (with the percentage of the last progress bar in its logs, where the
 * model prints one), `succeeded` names its output file.
 * `failed`, `canceled` and `aborted` end the job, free, with Replicate's reason; so does a success
 * whose output Replicate already removed (an API prediction's files go after an hour).
 */
export function decodePrediction(body: unknown): DecodedPrediction {
  if (!isRecord(body) || typeof body.id !== 'string' || body.id === '' || typeof body.status !== 'string' || !statuses.has(body.status)) {
    throw new GatewayError('upstream_invalid_response', 'Replicate answered with something that is not a prediction.');
  }
  const id = body.id;
  switch (body.status) {
    case 'starting':
      return { id, state: { status: 'queued' } };
    case 'processing': {
      const progress = progressFromLogs(body.logs);
      return { id, state: { status: 'in_progress', ...(progress === undefined ? {} : { progress }) } };
    }
    case 'failed':
      return { id, state: failure(body.error) };
    case 'canceled':
      return { id, state: { status: 'failed', error: { code: 'upstream_canceled', message: 'The prediction was canceled at Replicate.' } } };
    case 'aborted':
      return { id, state: { status: 'failed', error: { code: 'upstream_aborted', message: 'Replicate aborted the prediction before it started: its deadline passed.' } } };
    default: {
      const url = firstOutputUrl(body.output);
      // Output files are links on Replicate's delivery host, not its API's, so they are fetched without the token.
      if (url !== undefined) return { id, state: { status: 'completed', downloads: { video: url } } };
      const removed = body.data_removed === true;
      const message = removed ? "Replicate removed the prediction's output before the gateway could copy it." : 'The prediction succeeded without an output file.';
      return { id, state: { status: 'failed', error: { code: removed ? 'upstream_output_removed' : 'upstream_no_output', message } } };
    }
  }
}
