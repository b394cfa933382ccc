import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readNumber, readString } from '../../json/json-value.js';
import { drawPicture, type PictureFormat } from '../images/draw-picture.js';
import { asksForRefusal } from '../images/refusal-directive.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { fluxSize } from './flux-sizes.js';

/** BFL's API below the simulator's origin, as a provider with `base_url: builtin:sim` reaches it. */
export const bflPrefix = '/bfl';

/** BFL's delivery URLs last ten minutes. */
const sampleLifetimeMs = 10 * 60 * 1000;
/** Finished tasks are forgotten after this, as BFL forgets them ("Task not found"). */
const taskLifetimeMs = 30 * 60 * 1000;
/** A task answers `Pending` to this many polls before it is `Ready`. */
const pendingPolls = 1;
const maxSide = 4096;

interface SimTask {
  readonly id: string;
  readonly createdAt: number;
  readonly prompt: string;
  readonly width: number;
  readonly height: number;
  readonly format: PictureFormat;
  readonly inputs: readonly Buffer[];
  readonly refused: boolean;
  polls: number;
  picture?: Buffer;
}

const tasks = new Map<string, SimTask>();

function forgetOldTasks(now: number): void {
  for (const [id, task] of tasks) if (now - task.createdAt > taskLifetimeMs) tasks.delete(id);
}

function origin(request: IncomingMessage): string {
  return `http://${request.headers.host ?? '127.0.0.1'}`;
}

function inputImages(body: Readonly<Record<string, unknown>>): Buffer[] {
  return Object.keys(body)
    .filter((key) => /^input_image(_\d+)?$/.test(key))
    .sort()
    .flatMap((key) => {
      const value = body[key];
      return typeof value === 'string' && value !== '' ? [Buffer.from(value, 'base64')] : [];
    });
}

/**
 * BFL's FLUX API as the simulator plays it: `POST /v1/{model}` (an `x-key` required, any value)
 * answers a task id and its `polling_url`; `GET /v1/get_result?id=` answers `Pending`, then
 * `Ready` with `result.sample`, a delivery URL good for ten minutes serving a real picture of the
 * size the task makes. `[refuse]` in a prompt ends the task `Content Moderated`.
 */
export async function handleBfl(method: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = url.pathname.slice(bflPrefix.length);
  const now = Date.now();
  forgetOldTasks(now);
  if (method === 'GET' && path.startsWith('/delivery/')) {
    await deliver(path.slice('/delivery/'.length), url, response, now);
    return true;
  }
  if (typeof request.headers['x-key'] !== 'string' || request.headers['x-key'] === '') {
    request.resume();
    sendJson(response, 403, { detail: 'Not authenticated - Invalid Authentication' });
    return true;
  }
  if (method === 'GET' && path === '/v1/get_result') {
    poll(url.searchParams.get('id') ?? '', request, response);
    return true;
  }
  const submit = /^\/v1\/([a-z0-9.-]+)$/.exec(path);
  if (method === 'POST' && submit !== null) {
    await submitTask(submit[1] as string, request, response, now);
    return true;
  }
  return false;
}

async function submitTask(model: string, request: IncomingMessage, response: ServerResponse, now: number): Promise<void> {
  const parsed = await readJsonBody(request);
  if (parsed.kind !== 'ok') {
    sendJson(response, parsed.kind === 'too-large' ? 413 : 422, { detail: parsed.kind === 'too-large' ? 'Request too large' : parsed.message });
    return;
  }
  const body = parsed.body;
  const prompt = readString(body, 'prompt') ?? '';
  const size = fluxSize(model, readNumber(body, 'width'), readNumber(body, 'height'), readString(body, 'aspect_ratio'));
  if (size === undefined || size[0] < 32 || size[1] < 32 || size[0] > maxSide || size[1] > maxSide) {
    sendJson(response, 422, { detail: [{ loc: ['body', 'width'], msg: 'The size asked cannot be made.', type: 'value_error' }] });
    return;
  }
  const format: PictureFormat = readString(body, 'output_format') === 'png' ? 'png' : 'jpeg';
  const id = randomUUID();
  const task: SimTask = { id, createdAt: now, prompt, width: size[0], height: size[1], format, inputs: inputImages(body), refused: asksForRefusal(prompt), polls: 0 };
  tasks.set(id, task);
  const megapixels = Math.round((task.width * task.height) / 10_000) / 100;
  sendJson(response, 200, {
    id,
    polling_url: `${origin(request)}${bflPrefix}/v1/get_result?id=${id}`,
    cost: Math.round(megapixels * 3 * 100) / 100,
    input_mp: 0,
    output_mp: megapixels,
  });
}

function poll(id: string, request: IncomingMessage, response: ServerResponse): void {
  const task = tasks.get(id);
  if (task === undefined) {
    sendJson(response, 200, { id, status: 'Task not found', result: null, progress: null, details: null });
    return;
  }
  task.polls += 1;
  if (task.polls <= pendingPolls) {
    sendJson(response, 200, { id, status: 'Pending', result: null, progress: 0.5, details: null });
    return;
  }
  if (task.refused) {
    sendJson(response, 200, { id, status: 'Content Moderated', result: null, progress: null, details: { 'Moderation Reasons': ['Simulated'] } });
    return;
  }
  const expires = Date.now() + sampleLifetimeMs;
  const sample = `${origin(request)}${bflPrefix}/delivery/${id}.${task.format === 'png' ? 'png' : 'jpeg'}?se=${expires}`;
  sendJson(response, 200, { id, status: 'Ready', result: { sample, prompt: task.prompt, seed: 42, start_time: task.createdAt / 1000, end_time: Date.now() / 1000, duration: 1 }, progress: null, details: null });
}

async function deliver(name: string, url: URL, response: ServerResponse, now: number): Promise<void> {
  const task = tasks.get(name.replace(/\.(png|jpeg)$/, ''));
  const expires = Number(url.searchParams.get('se'));
  if (task === undefined || !Number.isFinite(expires) || now > expires) {
    response.writeHead(403, { 'content-type': 'application/xml' });
    response.end('<Error><Code>AuthenticationFailed</Code><Message>Signed expiry time has passed</Message></Error>');
    return;
  }
  task.picture ??= await drawPicture({ prompt: task.prompt, index: 0, width: task.width, height: task.height, format: task.format, transparent: false, ...(task.inputs.length === 0 ? {} : { inputs: task.inputs }) });
  response.writeHead(200, { 'content-type': task.format === 'png' ? 'image/png' : 'image/jpeg', 'content-length': task.picture.length });
  response.end(task.picture);
}
