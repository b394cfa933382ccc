import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRecord } from '../../json/json-value.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { jobVideo } from '../videos/sim-video-content.js';
import { decodeJobId, encodeJobId, jobPhase, jobSteering, type SimVideoJob } from '../videos/sim-video-job.js';
import { simRunwayModel, simRunwayModels, type SimRunwayEndpoint } from './runway-models.js';

const submitPath = /^\/v1\/(text_to_video|image_to_video)$/;
const taskPath = /^\/v1\/tasks\/([^/]+)$/;
/** Where outputs are served: a path of its own, as Runway's are on another host. */
const outputPath = /^\/sim-runway-output\/([^/]+)\.mp4$/;
const apiVersion = '2024-11-06';

/** Tasks cancelled or deleted: the only thing the simulator remembers; every other fact is in the id. */
const cancelled = new Set<string>();
const deleted = new Set<string>();

function refuse(response: ServerResponse, status: number, error: string): void {
  sendJson(response, status, { error });
}

/** A task from a submit's body, or Runway's reason to refuse it. */
function newTask(endpoint: SimRunwayEndpoint, body: JsonRecord): SimVideoJob | string {
  const rule = simRunwayModel(body['model'], endpoint);
  if (rule === undefined) return `Invalid model: ${endpoint} takes ${Object.keys(simRunwayModels).filter((model) => simRunwayModel(model, endpoint) !== undefined).join(', ')}.`;
  const ratios = rule.ratios[endpoint] ?? [];
  const ratio = body['ratio'];
  if (typeof ratio !== 'string' || !ratios.includes(ratio)) return `Invalid ratio: expected one of ${ratios.join(', ')}.`;
  const seconds = body['duration'] ?? rule.defaultDuration;
  if (typeof seconds !== 'number' || !rule.durations.includes(seconds)) return `Invalid duration: expected one of ${rule.durations.join(', ')}.`;
  const prompt = typeof body['promptText'] === 'string' ? body['promptText'] : '';
  if (endpoint === 'text_to_video' && prompt.trim() === '') return 'promptText: a non-empty string is required.';
  if (prompt.length > 1000) return 'promptText: at most 1000 characters.';
  if (endpoint === 'image_to_video') {
    const image = body['promptImage'];
    if (typeof image !== 'string' || !(image.startsWith('https://') || image.startsWith('data:image/'))) return 'promptImage: an HTTPS URL or an image data URI is required.';
    if (image.length >= 5 * 1024 * 1024) return 'promptImage: The data URI is too large.';
  }
  return { model: String(body['model']), seconds, size: ratio.replace(':', 'x'), createdAt: Date.now(), prompt: prompt.slice(0, 200), ...jobSteering(prompt), nonce: Math.floor(Math.random() * 1e9) };
}

function credits(job: SimVideoJob): number {
  return job.seconds * (simRunwayModels[job.model]?.creditsPerSecond ?? 0);
}

/** The task as Runway shows it: PENDING, RUNNING with a fraction, then SUCCEEDED or FAILED (FAIL, FILTER in the prompt). */
function taskAnswer(id: string, job: SimVideoJob, origin: string): JsonRecord {
  const base = { id, createdAt: new Date(job.createdAt).toISOString() };
  if (cancelled.has(id)) return { ...base, status: 'CANCELLED', cost: { credits: 0 } };
  const phase = jobPhase(job, Date.now());
  if (phase.status === 'queued') return { ...base, status: 'PENDING', estimatedCost: { credits: credits(job) } };
  if (phase.status === 'in_progress') return { ...base, status: 'RUNNING', progress: phase.progress / 100, estimatedCost: { credits: credits(job) } };
  if (job.outcome === 'filter') return { ...base, status: 'FAILED', failure: 'The simulator refused this video, as asked by FILTER in the prompt.', failureCode: 'SAFETY.OUTPUT.VIDEO', cost: { credits: 0 } };
  if (job.outcome === 'fail') return { ...base, status: 'FAILED', failure: 'The simulator was asked to fail this video.', failureCode: 'INTERNAL', cost: { credits: 0 } };
  return { ...base, status: 'SUCCEEDED', output: [`${origin}/sim-runway-output/${id}.mp4`], cost: { credits: credits(job) } };
}

/**
 * Runway's task API: `/v1/text_to_video` and `/v1/image_to_video` submits checked against each
 * model's ratios and lengths, `/v1/tasks/{id}` (GET to poll, DELETE to cancel or delete), and
 * the output as a real H.264 MP4 at the ratio's size. Any key is taken; the version header is
 * required, as Runway requires it. Answers whether it handled the request.
 */
export async function handleRunway(method: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = url.pathname;
  const submit = submitPath.exec(path);
  const task = taskPath.exec(path);
  const output = outputPath.exec(path);
  if (submit === null && task === null && output === null) return false;
  if (output !== null) {
    request.resume();
    const id = output[1] ?? '';
    const job = deleted.has(id) ? undefined : decodeJobId(id);
    if (method !== 'GET' || job === undefined) refuse(response, 404, 'Not found.');
    else {
      const bytes = await jobVideo(job);
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
      response.end(bytes);
    }
    return true;
  }
  const version = request.headers['x-runway-version'];
  if (version !== apiVersion) {
    request.resume();
    refuse(response, 400, version === undefined ? `The X-Runway-Version header is required. Set it to ${apiVersion}.` : `Invalid API version: ${String(version)}.`);
    return true;
  }
  if (submit !== null && method === 'POST') {
    const body = await readJsonBody(request);
    const job = body.kind === 'ok' ? newTask(submit[1] as SimRunwayEndpoint, body.body) : body.kind === 'invalid' ? body.message : 'The request body is too large.';
    if (typeof job === 'string') refuse(response, body.kind === 'too-large' ? 413 : 400, job);
    else sendJson(response, 200, { id: encodeJobId(job), estimatedCost: { credits: credits(job) } });
    return true;
  }
  request.resume();
  const id = task?.[1] ?? '';
  const job = deleted.has(id) ? undefined : decodeJobId(id);
  if (task === null || job === undefined) refuse(response, 404, 'Not found.');
  else if (method === 'GET') sendJson(response, 200, taskAnswer(id, job, `http://${request.headers.host ?? '127.0.0.1'}`));
  else if (method === 'DELETE') {
    // A task still under way is cancelled; a finished one is deleted and cannot be fetched again.
    if (jobPhase(job, Date.now()).status === 'queued' || jobPhase(job, Date.now()).status === 'in_progress') cancelled.add(id);
    else deleted.add(id);
    response.writeHead(204);
    response.end();
  } else refuse(response, 405, 'Method not allowed.');
  return true;
}
