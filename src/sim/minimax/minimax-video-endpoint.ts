import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { jobVideo } from '../videos/sim-video-content.js';
import { decodeJobId, encodeJobId, jobPhase, jobSteering, type SimVideoJob } from '../videos/sim-video-job.js';

/** The frame each resolution is rendered at (16:9), as MiniMax names them. */
const frames: Readonly<Record<string, string>> = { '512P': '912x512', '720P': '1280x720', '768P': '1366x768', '1080P': '1920x1080' };
const downloadPath = /^\/sim-minimax-files\/([^/]+)\/output\.mp4$/;
const ok = { status_code: 0, status_msg: 'success' };

/** MiniMax answers its refusals with HTTP 200 and a non-zero status code. */
function refuse(response: ServerResponse, code: number, message: string, extra: Record<string, unknown> = {}): void {
  sendJson(response, 200, { ...extra, base_resp: { status_code: code, status_msg: message } });
}

/** A submit's job, or MiniMax's `invalid params` message for it. */
function newJob(body: Readonly<Record<string, unknown>>): SimVideoJob | string {
  const prompt = body['prompt'] ?? '';
  if (typeof prompt !== 'string' || (prompt.trim() === '' && body['first_frame_image'] === undefined)) return 'invalid params, prompt is required';
  if ([...prompt].length > 2000) return 'invalid params, prompt is longer than 2000 characters';
  const duration = body['duration'] ?? 6;
  if (duration !== 6 && duration !== 10) return 'invalid params, duration must be 6 or 10';
  const resolution = String(body['resolution'] ?? '768P');
  const size = frames[resolution];
  if (size === undefined) return `invalid params, resolution ${resolution} is not supported`;
  if (resolution === '1080P' && duration !== 6) return 'invalid params, 1080P videos are 6 seconds long';
  return { model: String(body['model'] ?? 'MiniMax-Hailuo-02'), seconds: duration, size, createdAt: Date.now(), prompt: prompt.slice(0, 200), ...jobSteering(prompt), nonce: Math.floor(Math.random() * 1e9) };
}

/** The query's answer for a job at this moment: Preparing, Queueing, Processing, then Success or Fail. */
function query(taskId: string, job: SimVideoJob): Record<string, unknown> {
  const phase = jobPhase(job, Date.now());
  if (phase.status === 'queued') return { task_id: taskId, status: 'Queueing', file_id: '', base_resp: ok };
  if (phase.status === 'in_progress') return { task_id: taskId, status: 'Processing', file_id: '', base_resp: ok };
  if (job.outcome === 'filter') return { task_id: taskId, status: 'Fail', file_id: '', base_resp: { status_code: 1027, status_msg: 'The simulator withheld this video, as asked by FILTER in the prompt.' } };
  if (job.outcome === 'fail') return { task_id: taskId, status: 'Fail', file_id: '', base_resp: { status_code: 1000, status_msg: 'The simulator was asked to fail this video.' } };
  const [width, height] = job.size.split('x').map(Number);
  return { task_id: taskId, status: 'Success', file_id: taskId, video_width: width, video_height: height, base_resp: ok };
}

/**
 * MiniMax's video API (`/v1/video_generation`, `/v1/query/video_generation`, `/v1/files/retrieve`)
 * with downloads under `/sim-minimax-files/`: a job's whole state is in its id, as for the other
 * simulated video vendors. Any bearer key is taken; none is refused with 1004. Answers whether it
 * handled the request.
 */
export async function handleMiniMaxVideo(method: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = url.pathname;
  const download = downloadPath.exec(path);
  if (download !== null && method === 'GET') {
    request.resume();
    const job = decodeJobId(download[1] ?? '');
    if (job === undefined || jobPhase(job, Date.now()).status !== 'completed' || job.outcome !== 'complete') {
      response.writeHead(404, { 'content-type': 'application/xml' });
      response.end('<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
      return true;
    }
    const bytes = await jobVideo(job);
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
    response.end(bytes);
    return true;
  }
  const known = (method === 'POST' && path === '/v1/video_generation') || (method === 'GET' && (path === '/v1/query/video_generation' || path === '/v1/files/retrieve'));
  if (!known) return false;
  if (!/^Bearer \S+/.test(request.headers.authorization ?? '')) {
    request.resume();
    refuse(response, 1004, 'not authorized');
    return true;
  }
  if (method === 'POST') {
    const body = await readJsonBody(request);
    const job = body.kind === 'ok' ? newJob(body.body) : 'invalid params, the body is not a JSON object';
    if (typeof job === 'string') refuse(response, 2013, job, { task_id: '' });
    else sendJson(response, 200, { task_id: encodeJobId(job), base_resp: ok });
    return true;
  }
  request.resume();
  const id = url.searchParams.get(path === '/v1/files/retrieve' ? 'file_id' : 'task_id') ?? '';
  const job = decodeJobId(id);
  if (job === undefined) {
    refuse(response, 2013, `invalid params, ${path === '/v1/files/retrieve' ? 'file' : 'task'} not found`);
    return true;
  }
  if (path === '/v1/query/video_generation') {
    sendJson(response, 200, query(id, job));
    return true;
  }
  if (jobPhase(job, Date.now()).status !== 'completed' || job.outcome !== 'complete') {
    refuse(response, 2013, 'invalid params, file not found');
    return true;
  }
  const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
  const file = { file_id: id, bytes: 0, created_at: Math.floor((job.createdAt + job.renderMs) / 1000), filename: 'output.mp4', purpose: 'video_generation', download_url: `${origin}/sim-minimax-files/${id}/output.mp4` };
  sendJson(response, 200, { file, base_resp: ok });
  return true;
}
