import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../error-bodies.js';
import { sendJson } from '../send-json.js';
import { simVideoSizes } from './encoded-second.js';
import { openAiVideoId, openAiVideoObject } from './openai-video-object.js';
import { jobThumbnail, jobVideo } from './sim-video-content.js';
import { decodeJobId, encodeJobId, jobPhase, jobSteering, type SimVideoJob } from './sim-video-job.js';
import { readVideoFields } from './video-request-fields.js';

/** Jobs this simulator was asked to delete, and the ids it made (for listing), in creation order. */
const deleted = new Set<string>();
const made: string[] = [];

function invalid(response: ServerResponse, message: string, param: string | null, status = 400): void {
  sendJson(response, status, { error: { message, type: 'invalid_request_error', param, code: status === 404 ? 'not_found' : 'invalid_value' } });
}

function jobOf(id: string): SimVideoJob | undefined {
  if (!id.startsWith('video_') || deleted.has(id)) return undefined;
  return decodeJobId(id.slice('video_'.length));
}

/** A new job from a submit's fields, or the reason it is refused, as OpenAI refuses it. */
function newJob(fields: Readonly<Record<string, unknown>>, remixOf?: SimVideoJob & { readonly id: string }): SimVideoJob | { readonly message: string; readonly param: string } {
  const prompt = fields['prompt'];
  if (typeof prompt !== 'string' || prompt.trim() === '') return { message: "Missing required parameter: 'prompt'.", param: 'prompt' };
  const seconds = Number(fields['seconds'] ?? remixOf?.seconds ?? 4);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 20) return { message: `Invalid value for 'seconds': ${String(fields['seconds'])}. Expected a whole number from 1 to 20.`, param: 'seconds' };
  const size = String(fields['size'] ?? remixOf?.size ?? '720x1280');
  if (!simVideoSizes.includes(size)) return { message: `Invalid value for 'size': ${size}. Supported values are: ${simVideoSizes.map((value) => `'${value}'`).join(', ')}.`, param: 'size' };
  return {
    model: String(fields['model'] ?? remixOf?.model ?? 'sora-2'),
    seconds,
    size,
    createdAt: Date.now(),
    prompt: prompt.slice(0, 200),
    ...jobSteering(prompt),
    ...(remixOf === undefined ? {} : { remixOf: remixOf.id }),
    nonce: Math.floor(Math.random() * 1e9),
  };
}

async function create(request: IncomingMessage, response: ServerResponse, remixOf?: SimVideoJob & { readonly id: string }): Promise<void> {
  const read = await readVideoFields(request);
  if (read.kind === 'invalid') return invalid(response, read.message, null, read.status);
  const job = newJob(read.fields, remixOf);
  if ('message' in job) return invalid(response, job.message, job.param);
  const id = openAiVideoId(encodeJobId(job));
  made.push(id);
  sendJson(response, 200, openAiVideoObject(id, job, Date.now()));
}

function list(url: URL, response: ServerResponse): void {
  const order = url.searchParams.get('order') === 'asc' ? 'asc' : 'desc';
  const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 20) || 20));
  const ids = made.filter((id) => !deleted.has(id));
  if (order === 'desc') ids.reverse();
  const after = url.searchParams.get('after');
  const start = after === null ? 0 : ids.indexOf(after) + 1;
  const page = ids.slice(start, start + limit);
  const now = Date.now();
  const data = page.flatMap((id) => {
    const job = jobOf(id);
    return job === undefined ? [] : [openAiVideoObject(id, job, now)];
  });
  sendJson(response, 200, { object: 'list', data, first_id: page[0] ?? null, last_id: page.at(-1) ?? null, has_more: start + limit < ids.length });
}

async function content(id: string, job: SimVideoJob, url: URL, response: ServerResponse): Promise<void> {
  if (jobPhase(job, Date.now()).status !== 'completed') return invalid(response, `Video '${id}' is not ready: its content is available once it completes.`, null, 404);
  const variant = url.searchParams.get('variant') ?? 'video';
  if (variant !== 'video' && variant !== 'thumbnail') return invalid(response, `Invalid value for 'variant': ${variant}.`, 'variant');
  const bytes = variant === 'video' ? await jobVideo(job) : await jobThumbnail(job);
  response.writeHead(200, { 'content-type': variant === 'video' ? 'video/mp4' : 'image/webp', 'content-length': bytes.length });
  response.end(bytes);
}

/**
 * The OpenAI Videos API: `/v1/videos` and its job paths. Answers whether it handled the request.
 */
export async function handleOpenAiVideos(method: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '/v1/videos') {
    if (method === 'POST') await create(request, response);
    else if (method === 'GET') list(url, response);
    else return false;
    return true;
  }
  const match = /^\/v1\/videos\/([^/]+)(\/content|\/remix)?$/.exec(path);
  if (match === null || match[1] === 'models') return false;
  const id = decodeURIComponent(match[1] ?? '');
  const job = jobOf(id);
  if (job === undefined) {
    request.resume();
    sendJson(response, 404, errorBody('openai', 404, `Video with id '${id}' not found.`, ''));
    return true;
  }
  if (match[2] === '/content' && method === 'GET') await content(id, job, url, response);
  else if (match[2] === '/remix' && method === 'POST') await create(request, response, { ...job, id });
  else if (match[2] === undefined && method === 'GET') sendJson(response, 200, openAiVideoObject(id, job, Date.now()));
  else if (match[2] === undefined && method === 'DELETE') {
    deleted.add(id);
    sendJson(response, 200, { id, object: 'video.deleted', deleted: true });
  } else return false;
  return true;
}
