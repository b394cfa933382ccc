import { z } from 'zod';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import { videoJobObject } from '../../media/videos/video-job-object.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { jsonAnswer, videoCaller, visibleVideoJob } from './video-caller.js';

/** `GET /v1/videos/{id}`: the job as it stands. */
export async function handleGetVideo(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const key = await videoCaller(context, services);
    const job = await visibleVideoJob(services, context.req.param('id') ?? '', key);
    return jsonAnswer(videoJobObject(job), requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

const listQuerySchema = z
  .object({
    limit: z
      .string()
      .regex(/^\d+$/, 'limit must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100'))
      .default(20),
    after: z.string().min(1).optional(),
    order: z.enum(['asc', 'desc']).default('desc'),
  })
  .strict();

/** `GET /v1/videos`: the caller's jobs, a page at a time, in the OpenAI list shape. */
export async function handleListVideos(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const key = await videoCaller(context, services);
    const query = parseOrThrow(listQuerySchema, context.req.query());
    const page = await services.storage.videoJobs.list({ keyId: key?.id ?? null, limit: query.limit, order: query.order, ...(query.after === undefined ? {} : { after: query.after }) });
    const data = page.jobs.map(videoJobObject);
    return jsonAnswer({ object: 'list', data, first_id: page.jobs[0]?.id ?? null, last_id: page.jobs.at(-1)?.id ?? null, has_more: page.hasMore }, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
