import { scrubUpstreamText } from '../../providers/scrub-upstream-error.js';
import { toGatewayError } from '../../errors/gateway-error.js';
import type { UpstreamVideoState, VideoJobFailure } from '../../ir/video-generation.js';
import type { VideoJobEnding, VideoJobRecord } from './video-job-store.js';
import { finishCompletedJob } from './finish-completed-job.js';
import { failedEnding } from './video-job-ending.js';
import { unfinishedProgress } from './video-progress.js';
import { jobRoute, type VideoRoute } from './video-routes.js';
import { callVideoUpstream } from './video-upstream-call.js';
import { readVideoResult } from './read-video-result.js';
import type { VideoWorkContext } from './video-work-context.js';

/** The wait before the next poll: the upstream's hint when it gives one, else growing by half each poll. */
export function nextPollDelayMs(context: VideoWorkContext, attempts: number, hintMs: number | undefined): number {
  const { poll_interval_ms: first, max_poll_interval_ms: longest } = context.videos;
  if (hintMs !== undefined && hintMs > 0) return Math.min(longest, Math.max(first, hintMs));
  return Math.min(longest, Math.round(first * 1.5 ** attempts));
}

/** Puts the job back for a later poll, releasing it so any instance may take that poll. */
async function reschedule(job: VideoJobRecord, context: VideoWorkContext, state?: UpstreamVideoState): Promise<void> {
  const now = context.now();
  const unfinished = state?.status === 'queued' || state?.status === 'in_progress' ? state : undefined;
  const elapsedMs = now.getTime() - job.createdAt.getTime();
  await context.store.updateLeased(job.id, context.owner, {
    ...(unfinished === undefined ? {} : { status: unfinished.status, progress: unfinishedProgress(unfinished.progress, elapsedMs, context.videos.expected_render_seconds * 1000) }),
    nextPollAt: new Date(now.getTime() + nextPollDelayMs(context, job.pollAttempts, unfinished?.pollAfterMs)),
    pollAttempts: job.pollAttempts + 1,
    leaseExpiresAt: null,
  });
}

async function end(job: VideoJobRecord, context: VideoWorkContext, ending: VideoJobEnding): Promise<void> {
  const ended = await context.store.finish(job.id, ending, context.owner);
  if (ended) context.logger.info({ jobId: job.id, model: job.model, status: ending.status, code: ending.errorCode }, 'video job ended');
}

/** Stops the upstream job where it can be stopped; a failure to do so is only logged. */
async function cancelUpstream(job: VideoJobRecord, route: VideoRoute | undefined, context: VideoWorkContext): Promise<void> {
  if (route?.videos.buildCancel === undefined || job.upstreamJobId === null) return;
  await callVideoUpstream(route.adapter, route.route.target, route.videos.buildCancel(job.upstreamJobId, route.route.target), context.timeoutMs).catch((error: unknown) => {
    context.logger.warn({ jobId: job.id, err: error }, 'cancelling the upstream video job failed');
  });
}

/** Poll failures that say the job is gone or was never valid upstream: no later poll will differ. */
function isFinalPollFailure(status: number): boolean {
  return status === 400 || status === 404 || status === 410 || status === 422;
}

/**
 * One step of a claimed job: ask the upstream how it is doing and act on the answer — note its
 * progress and poll again later, end it as failed (free), or store its content and charge it.
 * Whatever happens, the job leaves this step ended or released.
 */
export async function workVideoJob(job: VideoJobRecord, context: VideoWorkContext): Promise<void> {
  const now = context.now();
  if (job.upstreamJobId === null) {
    const failure: VideoJobFailure = { code: 'submit_interrupted', message: 'The gateway stopped while submitting this job, before the upstream accepted it. Nothing was charged.' };
    await end(job, context, failedEnding(job, now, failure));
    return;
  }
  const route = jobRoute(context.catalog().find(job.model), job.provider, job.upstreamModel);
  if (now.getTime() >= job.deadlineAt.getTime()) {
    await cancelUpstream(job, route, context);
    const failure: VideoJobFailure = { code: 'deadline_exceeded', message: `The job did not finish within ${context.videos.deadline_seconds} seconds. Nothing was charged.` };
    await end(job, context, failedEnding(job, now, failure));
    return;
  }
  if (route === undefined) {
    // The operator may be mid-change; the deadline ends the job if the route never comes back.
    context.logger.warn({ jobId: job.id, model: job.model, provider: job.provider }, 'video job route is no longer configured; will retry');
    await reschedule(job, context);
    return;
  }
  let state: Exclude<UpstreamVideoState, { status: 'finished' }>;
  try {
    const answer = await callVideoUpstream(route.adapter, route.route.target, route.videos.buildPoll(job.upstreamJobId, route.route.target), context.timeoutMs);
    const polled = route.videos.decodePoll(answer.body, answer.headers, route.route.target);
    state = polled.status === 'finished' ? await readVideoResult(route, polled.resultId ?? job.upstreamJobId, context.timeoutMs) : polled;
  } catch (error) {
    const failure = toGatewayError(error);
    if (!failure.retryable && isFinalPollFailure(failure.status)) {
      await end(job, context, failedEnding(job, context.now(), { code: 'upstream_error', message: failure.message }));
      return;
    }
    context.logger.warn({ jobId: job.id, code: failure.code }, 'polling the upstream video job failed; will retry');
    await reschedule(job, context);
    return;
  }
  if (state.status === 'failed') {
    // The upstream's own words for the failure, shown to the client with the job: scrubbed like an error answer.
    await end(job, context, failedEnding(job, context.now(), { ...state.error, message: scrubUpstreamText(state.error.message, route.route.target) }));
  }
  else if (state.status === 'completed') await finishCompletedJob(job, route, state, context, () => reschedule(job, context));
  else await reschedule(job, context, state);
}
