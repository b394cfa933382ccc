import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRecord } from '../../json/json-value.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { jobVideo } from '../videos/sim-video-content.js';
import { decodeJobId, encodeJobId, jobPhase, jobSteering, type SimVideoJob } from '../videos/sim-video-job.js';

/** fal's queue below the simulator's `/fal` (a fal provider's `base_url: builtin:sim` points there). */
const prefix = '/fal';
const requestPath = /^\/fal\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/;
const filePath = /^\/fal\/files\/([^/]+)\/output\.mp4$/;

/** Requests cancelled since the simulator started; everything else about a request is in its id. */
const cancelled = new Set<string>();

/** The length an input asks for: fal writes it as `"5"`, `"8s"` or a number; 5 s when not given. */
function secondsOf(input: JsonRecord): number | undefined {
  const duration = input['duration'] ?? input['seconds'] ?? input['length'] ?? 5;
  const seconds = typeof duration === 'number' ? duration : Number(String(duration).replace(/s$/, ''));
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= 20 ? seconds : undefined;
}

/**
 * The frame size the simulator can make closest to what the input asks: 1080p or 720p (the
 * default), portrait for 9:16 and taller ratios, landscape otherwise (a square ratio included: the
 * simulator has no square frames).
 */
function sizeOf(input: JsonRecord): string {
  const resolution = String(input['resolution'] ?? '720p').toLowerCase();
  const [width, height] = String(input['aspect_ratio'] ?? '16:9').split(':').map(Number) as [number, number];
  const portrait = height > width;
  if (resolution === '1080p') return portrait ? '1080x1920' : '1920x1080';
  return portrait ? '720x1280' : '1280x720';
}

function invalid(response: ServerResponse, field: string, message: string): void {
  sendJson(response, 422, { detail: [{ loc: ['body', field], msg: message, type: 'value_error' }] });
}

function urls(origin: string, app: string, id: string): JsonRecord {
  const base = `${origin}${prefix}/${app}/requests/${id}`;
  return { request_id: id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
}

/** A status: `IN_QUEUE` for the first tenth of the render, `IN_PROGRESS` with a logged percentage, then `COMPLETED` (also for a failed or cancelled request, as on fal). */
function status(job: SimVideoJob, id: string, origin: string, app: string): { code: number; body: JsonRecord } {
  const phase = cancelled.has(id) ? { status: 'completed', progress: 100 } : jobPhase(job, Date.now());
  if (phase.status === 'queued') return { code: 202, body: { status: 'IN_QUEUE', queue_position: 0, ...urls(origin, app, id) } };
  if (phase.status === 'in_progress') {
    const log = { message: `Generating: ${phase.progress}%`, level: 'INFO', source: 'USER', timestamp: new Date().toISOString() };
    return { code: 202, body: { status: 'IN_PROGRESS', logs: [log], ...urls(origin, app, id) } };
  }
  return { code: 200, body: { status: 'COMPLETED', logs: null, metrics: { inference_time: job.renderMs / 1000 }, ...urls(origin, app, id) } };
}

/** The result: the video on the simulator's "CDN", or the request's failure as fal answers it, a 4xx of its own. */
function result(job: SimVideoJob, id: string, origin: string): { code: number; body: unknown } {
  if (cancelled.has(id)) return { code: 400, body: { detail: 'Request was cancelled.' } };
  const phase = jobPhase(job, Date.now()).status;
  if (phase === 'queued' || phase === 'in_progress') return { code: 400, body: { detail: 'Request is still in progress' } };
  if (job.outcome === 'filter') {
    const detail = [{ loc: ['body', 'prompt'], type: 'content_policy_violation', msg: 'The simulator refused this prompt, as asked by FILTER in it.' }];
    return { code: 422, body: { detail } };
  }
  if (job.outcome === 'fail') return { code: 422, body: { detail: [{ loc: ['body'], type: 'generation_failed', msg: 'The simulator was asked to fail this request.' }] } };
  return { code: 200, body: { video: { url: `${origin}${prefix}/files/${id}/output.mp4`, content_type: 'video/mp4', file_name: 'output.mp4' } } };
}

/**
 * fal's queue API, as fal documents it: `POST /{endpoint}` queues the input, `…/requests/{id}/status`
 * follows it, `…/requests/{id}` reads its result (a failed request answers there, with a 4xx), PUT
 * `…/cancel` stops it; the video is a real H.264 MP4 of the asked length. The prompt steers as at
 * the simulator's other video endpoints (`[video-ms:N]`, `FAIL`, `FILTER`). Any key is accepted.
 * Answers whether it handled the request.
 */
export async function handleFalQueue(method: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = url.pathname;
  if (!path.startsWith(`${prefix}/`)) return false;
  const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
  const file = filePath.exec(path);
  const queued = requestPath.exec(path);
  if (file !== null || queued !== null) {
    request.resume();
    const id = (file?.[1] ?? queued?.[2]) ?? '';
    const job = decodeJobId(id);
    if (job === undefined) {
      sendJson(response, 404, method === 'PUT' ? { status: 'NOT_FOUND' } : { detail: 'Request not found' });
      return true;
    }
    if (file !== null) {
      const bytes = await jobVideo(job);
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
      response.end(bytes);
      return true;
    }
    const app = queued?.[1] ?? '';
    const action = queued?.[3];
    if (action === '/cancel' && method === 'PUT') {
      const phase = jobPhase(job, Date.now()).status;
      if (phase === 'completed' || phase === 'failed') sendJson(response, 400, { status: 'ALREADY_COMPLETED' });
      else {
        cancelled.add(id);
        sendJson(response, 202, { status: 'CANCELLATION_REQUESTED' });
      }
    } else if (action === '/status' && method === 'GET') {
      const answer = status(job, id, origin, app);
      sendJson(response, answer.code, answer.body);
    } else if (action === undefined && method === 'GET') {
      const answer = result(job, id, origin);
      sendJson(response, answer.code, answer.body);
    } else sendJson(response, 405, { detail: 'Method Not Allowed' });
    return true;
  }
  if (method !== 'POST') return false;
  const endpointId = path.slice(prefix.length + 1).replace(/\/+$/, '');
  const body = await readJsonBody(request);
  if (body.kind !== 'ok') {
    invalid(response, 'body', body.kind === 'invalid' ? body.message : 'The request body is too large.');
    return true;
  }
  const input = body.body;
  const prompt = input['prompt'];
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    invalid(response, 'prompt', 'Field required');
    return true;
  }
  const seconds = secondsOf(input);
  if (seconds === undefined) {
    invalid(response, 'duration', 'The simulator makes videos of 1 to 20 whole seconds.');
    return true;
  }
  const job: SimVideoJob = { model: endpointId, seconds, size: sizeOf(input), createdAt: Date.now(), prompt: prompt.slice(0, 200), ...jobSteering(prompt), nonce: Math.floor(Math.random() * 1e9) };
  const id = encodeJobId(job);
  const app = endpointId.split('/').slice(0, 2).join('/');
  sendJson(response, 200, { status: 'IN_QUEUE', queue_position: 0, ...urls(origin, app, id) });
  return true;
}

