import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '../../json/json-value.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { simVideoSizes } from '../videos/encoded-second.js';
import { jobVideo } from '../videos/sim-video-content.js';
import { decodeJobId, encodeJobId, jobPhase, jobSteering, type SimVideoJob } from '../videos/sim-video-job.js';

const officialPath = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/;
const predictionPath = /^\/v1\/predictions\/([^/]+?)(\/cancel)?$/;
const filePath = /^\/sim-storage\/replicate\/([^/]+)\.mp4$/;

/** Predictions cancelled in this process (a job is otherwise all in its id, as the simulator's other jobs are). */
const canceled = new Set<string>();

function problem(response: ServerResponse, status: number, title: string, detail: string): void {
  sendJson(response, status, { title, detail, status });
}

/** The frame the simulator can encode nearest to what the input asks: its resolution and orientation. */
function sizeOf(input: Record<string, unknown>): string {
  const resolution = input.mode === 'pro' ? '1080p' : String(input.resolution ?? '720p');
  const [width, height] = String(input.aspect_ratio ?? '16:9').split(':').map(Number) as [number, number];
  const portrait = height > width;
  const size = resolution === '1080p' ? (portrait ? '1080x1920' : '1920x1080') : portrait ? '720x1280' : '1280x720';
  return simVideoSizes.includes(size) ? size : '1280x720';
}

/** Seconds from `duration`, or from Wan's frames at its frame rate. */
function secondsOf(input: Record<string, unknown>): number {
  if (typeof input.duration === 'number' && Number.isInteger(input.duration) && input.duration > 0) return input.duration;
  if (typeof input.num_frames === 'number') return Math.max(1, Math.round(input.num_frames / (typeof input.frames_per_second === 'number' ? input.frames_per_second : 16)));
  return 5;
}

function prediction(id: string, job: SimVideoJob, origin: string): Record<string, unknown> {
  const phase = jobPhase(job, Date.now());
  const status = canceled.has(id) ? 'canceled' : phase.status === 'queued' ? 'starting' : phase.status === 'in_progress' ? 'processing' : phase.status === 'completed' ? 'succeeded' : 'failed';
  const get = `${origin}/v1/predictions/${id}`;
  const error = status !== 'failed' ? null : job.outcome === 'filter' ? 'NSFW content detected. The simulator was asked to refuse this video (FILTER in the prompt).' : 'The simulator was asked to fail this video.';
  return {
    id,
    model: job.model,
    version: 'sim',
    input: { prompt: job.prompt },
    logs: '',
    output: status === 'succeeded' ? `${origin}/sim-storage/replicate/${id}.mp4` : null,
    data_removed: false,
    error,
    status,
    source: 'api',
    created_at: new Date(job.createdAt).toISOString(),
    urls: { get, cancel: `${get}/cancel` },
  };
}

async function create(request: IncomingMessage, response: ServerResponse, model: string | undefined, origin: string): Promise<void> {
  const body = await readJsonBody(request);
  if (body.kind !== 'ok') return problem(response, body.kind === 'too-large' ? 413 : 400, 'Invalid request', body.kind === 'invalid' ? body.message : 'The request body is too large.');
  const version = body.body.version;
  if (model === undefined && (typeof version !== 'string' || !/^[0-9a-f]{64}$/.test(version))) {
    return problem(response, 422, 'Invalid version or not permitted', "The specified version does not exist (or perhaps you don't have permission to use it?)");
  }
  const input: Record<string, unknown> = isRecord(body.body.input) ? body.body.input : {};
  const prompt = input.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') return problem(response, 422, 'Input validation failed', '- input: prompt is required');
  const job: SimVideoJob = { model: model ?? String(version), seconds: secondsOf(input), size: sizeOf(input), createdAt: Date.now(), prompt: prompt.slice(0, 200), ...jobSteering(prompt), nonce: Math.floor(Math.random() * 1e9) };
  const id = encodeJobId(job);
  sendJson(response, 201, prediction(id, job, origin));
}

/**
 * Replicate's predictions: created on an official model or a version, polled at their `urls.get`,
 * cancelled, and their output served as an MP4 the simulator makes. Prompts steer them as the
 * simulator's other video jobs: `[video-ms:N]`, `FAIL`, and `FILTER` (a model's NSFW refusal).
 * Answers whether it handled the request.
 */
export async function handleReplicatePredictions(method: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = url.pathname;
  const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
  const official = officialPath.exec(path);
  if (method === 'POST' && (official !== null || path === '/v1/predictions')) {
    await create(request, response, official === null ? undefined : `${decodeURIComponent(official[1] ?? '')}/${decodeURIComponent(official[2] ?? '')}`, origin);
    return true;
  }
  const polled = predictionPath.exec(path);
  const file = filePath.exec(path);
  if (polled === null && file === null) return false;
  request.resume();
  const id = polled?.[1] ?? file?.[1] ?? '';
  const job = decodeJobId(id);
  if (job === undefined) {
    problem(response, 404, 'Not found', 'Not found.');
    return true;
  }
  if (polled !== null) {
    if (polled[2] !== undefined && method === 'POST' && jobPhase(job, Date.now()).status !== 'completed') canceled.add(id);
    sendJson(response, 200, prediction(id, job, origin));
    return true;
  }
  const bytes = await jobVideo(job);
  response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
  response.end(bytes);
  return true;
}
