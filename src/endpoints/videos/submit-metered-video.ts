import { GatewayError } from '../../errors/gateway-error.js';
import { submitVideoJob, type VideoSubmit } from '../../media/videos/submit-video-job.js';
import { videoJobObject } from '../../media/videos/video-job-object.js';
import type { MeteredCall } from '../metered-call/metered-call-state.js';
import type { MeteredAnswer } from '../metered-call/metered-endpoint.js';
import { idempotencyKey } from './idempotency-key.js';
import { videoSubmitSettings } from './video-submit-settings.js';

/**
 * The `send` of a video submit or remix: the job is recorded and handed to its upstream, its
 * worst case reserved against the key's budgets until the job's ledger entry settles it (the job
 * ends long after the call). Answers with the job (docs/api.md, "Videos").
 */
export async function submitMeteredVideo(call: MeteredCall, submit: Omit<VideoSubmit, 'keyId' | 'idempotencyKey' | 'budget'>): Promise<MeteredAnswer> {
  const { services, key, limits } = call;
  if (limits === undefined) throw new GatewayError('internal_error', 'A video was submitted before its call was admitted.');
  const { job } = await submitVideoJob(
    {
      ...submit,
      keyId: key?.id ?? null,
      idempotencyKey: idempotencyKey(call.exchange.incoming),
      budget: limits,
    },
    videoSubmitSettings(services, call.snapshot.routing, call.requestId, submit.model.id, key?.id),
  );
  services.videos.worker.poke();
  return { contentType: 'application/json', body: JSON.stringify(videoJobObject(job)) };
}
