import { GatewayError } from '../../../errors/gateway-error.js';
import type { SubmittedVideoJob, UpstreamVideoState } from '../../../ir/video-generation.js';
import type { UpstreamTarget } from '../../provider-adapter.js';

interface VideoJobFields {
  readonly id: string;
  readonly status: string;
  readonly progress?: unknown;
  readonly seconds?: unknown;
  readonly error?: unknown;
}

function jobFields(body: unknown): VideoJobFields {
  const job = body as Partial<VideoJobFields> | null;
  if (job === null || typeof job !== 'object' || typeof job.id !== 'string' || typeof job.status !== 'string') {
    throw new GatewayError('upstream_invalid_response', 'The upstream answered with something that is not a video job.');
  }
  return job as VideoJobFields;
}

function numberOf(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

function failureOf(error: unknown): { code: string; message: string } {
  const fields = (error ?? {}) as { code?: unknown; message?: unknown };
  return {
    code: typeof fields.code === 'string' && fields.code !== '' ? fields.code : 'upstream_failed',
    message: typeof fields.message === 'string' && fields.message !== '' ? fields.message : 'The upstream could not make the video.',
  };
}

/** A job object's state; statuses the shape may grow are taken as still working. */
function stateOf(job: VideoJobFields, target: UpstreamTarget, pollAfterMs: number | undefined): UpstreamVideoState {
  const content = `${target.baseUrl}/videos/${encodeURIComponent(job.id)}/content`;
  switch (job.status) {
    case 'completed': {
      const seconds = numberOf(job.seconds);
      return { status: 'completed', ...(seconds === undefined ? {} : { seconds }), downloads: { video: content, thumbnail: `${content}?variant=thumbnail` } };
    }
    case 'failed':
    case 'cancelled':
      return { status: 'failed', error: failureOf(job.error) };
    default: {
      const progress = numberOf(job.progress);
      return {
        status: job.status === 'queued' ? 'queued' : 'in_progress',
        ...(progress === undefined ? {} : { progress: Math.max(0, Math.min(100, progress)) }),
        ...(pollAfterMs === undefined ? {} : { pollAfterMs }),
      };
    }
  }
}

/** `retry-after` in seconds, as a wait in milliseconds. */
function pollAfter(headers: Readonly<Record<string, string>>): number | undefined {
  const seconds = numberOf(headers['retry-after']);
  return seconds === undefined || seconds <= 0 ? undefined : seconds * 1000;
}

export function decodeVideoSubmit(body: unknown, target: UpstreamTarget): SubmittedVideoJob {
  const job = jobFields(body);
  return { upstreamJobId: job.id, state: stateOf(job, target, undefined) };
}

export function decodeVideoPoll(body: unknown, headers: Readonly<Record<string, string>>, target: UpstreamTarget): UpstreamVideoState {
  return stateOf(jobFields(body), target, pollAfter(headers));
}
