import { z } from 'zod';
import type { CatalogModel } from '../../catalog/model-catalog.js';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import { sellableVariants } from '../../catalog/sellable-variants.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { chatFormat } from '../../formats/chat/index.js';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import type { VideoGenerationRequest, VideoMode } from '../../ir/video-generation.js';
import { assertModelAllowed } from '../../keys/key-scope.js';
import type { VideoJobRecord } from '../../media/videos/video-job-store.js';
import { jobRoute, type VideoRoute } from '../../media/videos/video-routes.js';
import type { SelectedVariant } from '../../media/videos/select-video-variant.js';
import { assertJsonContentType, parseJsonObject, readRequestBody } from '../../http/read-request-body.js';
import type { MeteredAnswer, MeteredEndpoint } from '../metered-call/metered-endpoint.js';
import { submitMeteredVideo } from './submit-metered-video.js';
import { visibleVideoJob } from './video-caller.js';

const remixSchema = z.object({ prompt: z.string().trim().min(1, 'the prompt must not be empty') }).strict();

interface AskedRemix {
  readonly prompt: string;
  readonly source: VideoJobRecord;
}

interface DecodedRemix {
  readonly model: CatalogModel;
  readonly route: VideoRoute;
  readonly selected: SelectedVariant;
  readonly request: VideoGenerationRequest;
  readonly prompt: string;
  readonly source: VideoJobRecord;
  readonly upstreamJobId: string;
}

/**
 * `POST /v1/videos/{id}/remix`: a new job made from a completed one, on the same upstream, in the
 * same variant at today's price. A model or upstream that cannot remix is a 422 naming the model.
 */
export const remixVideoEndpoint: MeteredEndpoint<AskedRemix, DecodedRemix, MeteredAnswer> = {
  family: 'videos',
  format: chatFormat,
  async read(call) {
    const incoming = call.exchange.incoming;
    assertJsonContentType(incoming.headers['content-type']);
    const { prompt } = parseOrThrow(remixSchema, parseJsonObject((await readRequestBody(incoming, call.services.config.server.body_limit_bytes)).text));
    const source = await visibleVideoJob(call.services, call.exchange.pathParameters?.id ?? '', call.key);
    return { prompt, source };
  },
  decode(call, { prompt, source }) {
    const model = call.snapshot.catalog.find(source.model);
    if (model?.video === undefined) throw new GatewayError('model_not_found', `The model '${source.model}' is no longer offered.`, { param: 'model' });
    assertModelAllowed(call.key, model.id);
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
    return { model, route, selected: { variant, seconds: source.seconds }, request, prompt, source, upstreamJobId: source.upstreamJobId };
  },
  worstCase: undefined,
  send: (call, { model, route, selected, request, prompt, source, upstreamJobId }) =>
    submitMeteredVideo(call, {
      model,
      selected,
      request,
      routes: [route],
      send: (candidate) => (candidate.videos.buildRemix as NonNullable<typeof candidate.videos.buildRemix>)(upstreamJobId, prompt, candidate.route.target),
      remixedFromVideoId: source.id,
    }),
  meter: undefined,
  meterFailure: undefined,
};
