import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '../../json/json-value.js';
import { errorBody } from '../error-bodies.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { jobVideo } from './sim-video-content.js';
import { decodeJobId, encodeJobId, jobPhase, jobSteering, type SimVideoJob } from './sim-video-job.js';

const submitPath = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/;
const operationPath = /^\/v1beta\/(models\/[^/]+\/operations\/([^/]+))$/;
const filePath = /^\/v1beta\/files\/([^/:]+):download$/;
const storagePath = /^\/sim-storage\/videos\/([^/]+)\.mp4$/;

const sizes: Readonly<Record<string, string>> = { '720p 16:9': '1280x720', '720p 9:16': '720x1280', '1080p 16:9': '1920x1080', '1080p 9:16': '1080x1920' };

function refuse(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, errorBody('gemini', status, message, ''));
}

/** A Veo submit's job, or Google's reason to refuse it (the Gemini API and Vertex AI take the same body). */
export function newVeoJob(model: string, body: Record<string, unknown>): SimVideoJob | string {
  const instance = Array.isArray(body['instances']) ? body['instances'][0] : undefined;
  const prompt = isRecord(instance) ? instance['prompt'] : undefined;
  if (typeof prompt !== 'string' || prompt.trim() === '') return 'A prompt is required in instances[0].prompt.';
  const parameters = isRecord(body['parameters']) ? body['parameters'] : {};
  const seconds = parameters['durationSeconds'] ?? 8;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 4 || seconds > 8) {
    return 'The number value for `durationSeconds` is out of bound. Please provide a value between 4 and 8, inclusive.';
  }
  const size = sizes[`${String(parameters['resolution'] ?? '720p')} ${String(parameters['aspectRatio'] ?? '16:9')}`];
  if (size === undefined) return 'Unsupported resolution and aspectRatio: use 720p or 1080p at 16:9 or 9:16.';
  return { model, seconds, size, createdAt: Date.now(), prompt: prompt.slice(0, 200), ...jobSteering(prompt), nonce: Math.floor(Math.random() * 1e9) };
}

function operation(name: string, job: SimVideoJob, origin: string): Record<string, unknown> {
  const phase = jobPhase(job, Date.now());
  if (phase.status === 'queued' || phase.status === 'in_progress') return { name };
  if (job.outcome === 'fail') return { name, done: true, error: { code: 13, message: 'The simulator was asked to fail this video.', status: 'INTERNAL' } };
  const type = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';
  if (job.outcome === 'filter') {
    const reasons = ['The simulator filtered this video, as asked by FILTER in the prompt. You have not been charged for this attempt.'];
    return { name, done: true, response: { '@type': type, generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: reasons } } };
  }
  const uri = `${origin}/v1beta/files/${encodeJobId(job)}:download?alt=media`;
  return { name, done: true, response: { '@type': type, generateVideoResponse: { generatedSamples: [{ video: { uri } }] } } };
}

/**
 * Veo on the Gemini API: `:predictLongRunning`, its operations, and file downloads that redirect
 * to storage, as Google's do. Answers whether it handled the request.
 */
export async function handleVeo(method: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = url.pathname;
  const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
  const submit = submitPath.exec(path);
  if (submit !== null && method === 'POST') {
    const body = await readJsonBody(request);
    const model = decodeURIComponent(submit[1] ?? '');
    const job = body.kind === 'ok' ? newVeoJob(model, body.body) : body.kind === 'invalid' ? body.message : 'The request body is too large.';
    if (typeof job === 'string') refuse(response, body.kind === 'too-large' ? 413 : 400, job);
    else sendJson(response, 200, { name: `models/${model}/operations/${encodeJobId(job)}` });
    return true;
  }
  const polled = operationPath.exec(path);
  const file = filePath.exec(path) ?? storagePath.exec(path);
  if (method !== 'GET' || (polled === null && file === null)) return false;
  request.resume();
  const job = decodeJobId((polled?.[2] ?? file?.[1]) ?? '');
  if (job === undefined) refuse(response, 404, 'Requested entity was not found.');
  else if (polled !== null) sendJson(response, 200, operation(polled[1] ?? '', job, origin));
  else if (path.startsWith('/v1beta/files/')) {
    response.writeHead(302, { location: `${origin}/sim-storage/videos/${file?.[1] ?? ''}.mp4` });
    response.end();
  } else {
    const bytes = await jobVideo(job);
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
    response.end(bytes);
  }
  return true;
}
