import { AbortScope } from '../../call/abort-scope.js';
import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import type { VideosConfig } from '../../config/config-schema.js';
import { GatewayError, toGatewayError } from '../../errors/gateway-error.js';
import type { SubmittedVideoJob, VideoGenerationRequest } from '../../ir/video-generation.js';
import { inUpstreamSlot } from '../../routing/in-upstream-slot.js';
import { runWithFallback, type AttemptReport, type FallbackPolicy } from '../../routing/run-with-fallback.js';
import type { VideoJobRecord, VideoJobStore } from './video-job-store.js';
import type { CallLimits } from '../../governance/key-limits.js';
import type { UpstreamCaps } from '../../governance/upstream-caps/upstream-caps.js';
import { worstVideoCostNanoUsd } from '../../governance/worst-case/video-worst-case.js';
import type { SelectedVariant } from './select-video-variant.js';
import { failedEnding } from './video-job-ending.js';
import { newVideoJobId } from './video-job-id.js';
import { videoRequestHash } from './video-request-hash.js';
import type { VideoRoute } from './video-routes.js';
import { callVideoUpstream } from './video-upstream-call.js';

export interface VideoSubmitSettings {
  readonly store: VideoJobStore;
  readonly videos: VideosConfig;
  /** This process's worker name: the submit holds the new job's lease until the upstream has it. */
  readonly owner: string;
  readonly fallback: FallbackPolicy;
  readonly timeoutMs: number;
  readonly onFailure: (report: AttemptReport) => void;
  readonly now: () => Date;
  /** A submit holds a slot of its provider's concurrency cap while it is sent (the render runs upstream, uncounted). */
  readonly caps: UpstreamCaps;
}

export interface VideoSubmit {
  readonly keyId: string | null;
  readonly idempotencyKey: string | undefined;
  readonly model: CatalogModel;
  readonly selected: SelectedVariant;
  readonly request: VideoGenerationRequest;
  /** The routes to try in order (a remix has only its source's). */
  readonly routes: readonly VideoRoute[];
  /** The upstream call a route makes: a submit, or a remix of the source job. */
  readonly send: (route: VideoRoute) => ReturnType<VideoRoute['videos']['buildSubmit']>;
  readonly remixedFromVideoId?: string;
  /**
   * Reserves the job's worst case (its seconds at its price) against the key's budgets before the
   * job exists, or throws 402. The reservation is given back when no job comes of it after all;
   * otherwise the job's ledger entry settles it when the job ends.
   */
  readonly budget?: Pick<CallLimits, 'reserveForJob'>;
}

function newJob(submit: VideoSubmit, settings: VideoSubmitSettings, first: CatalogRoute): VideoJobRecord {
  const now = settings.now();
  const { variant, seconds } = submit.selected;
  const attempts = settings.fallback.attemptsPerRoute * submit.routes.length;
  return {
    id: newVideoJobId(),
    keyId: submit.keyId,
    idempotencyKey: submit.idempotencyKey ?? null,
    requestHash: submit.idempotencyKey === undefined ? null : videoRequestHash(submit.model.id, submit.request, submit.remixedFromVideoId),
    model: submit.model.id,
    provider: first.target.providerName,
    upstreamModel: first.target.model,
    upstreamJobId: null,
    prompt: submit.request.prompt,
    mode: variant.mode,
    resolution: variant.resolution,
    aspectRatio: variant.aspectRatio,
    size: variant.size,
    seconds,
    remixedFromVideoId: submit.remixedFromVideoId ?? null,
    pricePerSecondPicoUsd: variant.price.perSecond,
    status: 'queued',
    progress: 0,
    errorCode: null,
    errorMessage: null,
    createdAt: now,
    completedAt: null,
    expiresAt: null,
    deadlineAt: new Date(now.getTime() + settings.videos.deadline_seconds * 1000),
    nextPollAt: new Date(now.getTime() + settings.videos.poll_interval_ms),
    pollAttempts: 0,
    // Held for as long as every attempt may take: no worker may take the job for a dead submit meanwhile.
    leaseOwner: settings.owner,
    leaseExpiresAt: new Date(now.getTime() + settings.videos.lease_seconds * 1000 + attempts * settings.timeoutMs),
    deliveredSeconds: null,
    costNanoUsd: null,
    contents: {},
    deletedAt: null,
  };
}

/**
 * A key sent again must come with the same request (the IETF idempotency-key draft): another
 * request under it is the client's mistake, and answering with the first job would hide it.
 */
function assertSameRequest(existing: VideoJobRecord, draft: VideoJobRecord): void {
  if (existing.requestHash === null || existing.requestHash === draft.requestHash) return;
  throw new GatewayError(
    'idempotency_key_reused',
    `The Idempotency-Key '${draft.idempotencyKey ?? ''}' was already used for another request (job ${existing.id}); send a new key for a new request.`,
    { param: 'Idempotency-Key' },
  );
}

/**
 * Records the job, then hands it to the upstream. The row comes first so that a retried submit
 * with the same `Idempotency-Key` finds it (in any instance) instead of starting a second upstream
 * job. A submit the upstream refuses ends the job as failed, free, and the client hears the
 * upstream's error; the worker takes it from there otherwise.
 */
export async function submitVideoJob(submit: VideoSubmit, settings: VideoSubmitSettings): Promise<{ job: VideoJobRecord; created: boolean }> {
  const first = submit.routes[0];
  if (first === undefined) throw new RangeError('a video submit needs a route');
  const draft = newJob(submit, settings, first.route);
  const reservation = await submit.budget?.reserveForJob(draft.id, worstVideoCostNanoUsd(submit.selected.variant.price, submit.selected));
  let inserted: { job: VideoJobRecord; created: boolean };
  try {
    inserted = await settings.store.insert(draft);
  } catch (error) {
    reservation?.release();
    throw error;
  }
  // A retried submit gets the job of its first attempt, already reserved for.
  if (!inserted.created) {
    reservation?.release();
    assertSameRequest(inserted.job, draft);
    return inserted;
  }
  const job = inserted.job;
  let accepted: { submitted: SubmittedVideoJob; route: VideoRoute };
  try {
    accepted = await runWithFallback(
      submit.routes.map((candidate) => candidate.route),
      settings.fallback,
      new AbortScope(),
      (route) =>
        inUpstreamSlot(
          settings.caps,
          route,
          async () => {
            const candidate = submit.routes.find((entry) => entry.route === route) as VideoRoute;
            const answer = await callVideoUpstream(candidate.adapter, candidate.route.target, submit.send(candidate), route.timeoutMs ?? settings.timeoutMs);
            return { submitted: candidate.videos.decodeSubmit(answer.body, candidate.route.target), route: candidate };
          },
          () => undefined,
        ),
      settings.onFailure,
    );
  } catch (error) {
    const failure = toGatewayError(error);
    await settings.store.finish(job.id, failedEnding(job, settings.now(), { code: failure.code, message: failure.message }), settings.owner);
    throw failure;
  }
  const { submitted, route } = accepted;
  const state = submitted.state;
  await settings.store.updateLeased(job.id, settings.owner, {
    upstreamJobId: submitted.upstreamJobId,
    provider: route.route.target.providerName,
    upstreamModel: route.route.target.model,
    ...(state?.status === 'queued' || state?.status === 'in_progress' ? { status: state.status, ...(state.progress === undefined ? {} : { progress: Math.min(99, state.progress) }) } : {}),
    // An answer that already says the job is done is picked up by the worker at once.
    ...(state !== undefined && state.status !== 'queued' && state.status !== 'in_progress' ? { nextPollAt: settings.now() } : {}),
    leaseExpiresAt: null,
  });
  return { job: (await settings.store.get(job.id)) ?? job, created: true };
}
