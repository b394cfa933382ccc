import { z } from 'zod';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import { sellableVariants } from '../../catalog/sellable-variants.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import type { VideoGenerationRequest, VideoMode } from '../../ir/video-generation.js';
import { assertModelAllowed } from '../../keys/key-scope.js';
import { submitVideoJob } from '../../media/videos/submit-video-job.js';
import { videoJobObject } from '../../media/videos/video-job-object.js';
import { jobRoute } from '../../media/videos/video-routes.js';
import type { CallLimits } from '../../governance/key-limits.js';
import { errorResponse } from '../../http/error-response.js';
import { withLimitHeaders } from '../../http/with-limit-headers.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { assertJsonContentType, parseJsonObject, readRequestBody } from '../../http/read-request-body.js';
import { idempotencyKey } from './idempotency-key.js';
import { jsonAnswer, videoCaller, visibleVideoJob } from './video-caller.js';
import { videoSubmitSettings } from './video-submit-settings.js';

const remixSchema = z.object({ prompt: z.string().trim().min(1, 'the prompt must not be empty') }).strict();

/**
 * `POST /v1/videos/{id}/remix`: a new job made from a completed one, on the same upstream, in the
 * same variant at today's price. A model or upstream that cannot remix is a 422 naming the model.
 */
export async function handleRemixVideo(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  let limits: CallLimits | undefined;
  try {
    const key = await videoCaller(context, services);
    assertJsonContentType(context.env.incoming.headers['content-type']);
    const { prompt } = parseOrThrow(remixSchema, parseJsonObject((await readRequestBody(context.env.incoming, services.config.server.body_limit_bytes)).text));
    const source = await visibleVideoJob(services, context.req.param('id') ?? '', key);
    const callLimits = await services.limits.admit(key);
    limits = callLimits;
    const { catalog, routing } = services.catalog.current();
    const model = catalog.find(source.model);
    if (model?.video === undefined) throw new GatewayError('model_not_found', `The model '${source.model}' is no longer offered.`, { param: 'model' });
    assertModelAllowed(key, model.id);
    const route = jobRoute(model, source.provider, source.upstreamModel);
    if (!model.video.remix || route?.videos.buildRemix === undefined) {
      throw new GatewayError('unsupported_combination', `The model '${model.id}' cannot remix videos.`, { param: 'model' });
    }
    if (source.status !== 'completed' || source.upstreamJobId === null) {
      throw new GatewayError('video_not_ready', `The video job '${source.id}' has not completed; only a completed video can be remixed.`);
    }
    const variant = sellableVariants(model.video, priceAt(model.prices, new Date())).find(
      (candidate) => candidate.mode === source.mode && candidate.resolution === source.resolution && candidate.aspectRatio === source.aspectRatio,
    );
    if (variant === undefined) throw new GatewayError('invalid_request', `The model '${model.id}' no longer sells the variant of '${source.id}'.`);
    const request: VideoGenerationRequest = { prompt, mode: source.mode as VideoMode, seconds: source.seconds, size: source.size, resolution: source.resolution, aspectRatio: source.aspectRatio };
    const upstreamJobId = source.upstreamJobId;
    const { job } = await submitVideoJob(
      {
        keyId: key?.id ?? null,
        idempotencyKey: idempotencyKey(context),
        model,
        selected: { variant, seconds: source.seconds },
        request,
        routes: [route],
        send: (candidate) => (candidate.videos.buildRemix as NonNullable<typeof candidate.videos.buildRemix>)(upstreamJobId, prompt, candidate.route.target),
        remixedFromVideoId: source.id,
        budget: callLimits,
      },
      videoSubmitSettings(services, routing, requestId, model.id, key?.id),
    );
    services.videos.worker.poke();
    // The job's reservation is the job's now: its ledger entry settles it when the job ends.
    callLimits.finish();
    return withLimitHeaders(jsonAnswer(videoJobObject(job), requestId), callLimits);
  } catch (error) {
    limits?.finish();
    return withLimitHeaders(errorResponse(error, requestId), limits);
  }
}
