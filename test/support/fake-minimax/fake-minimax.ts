import { createHmac } from 'node:crypto';
import { encodedSecondFor } from '../../../src/sim/videos/encoded-second.js';
import { muxMp4 } from '../../../src/sim/videos/mux-mp4.js';
import { json, startScriptedUpstream, type Reply, type ReceivedRequest, type ScriptedUpstream } from '../scripted-upstream/index.js';
import { frameSizes, readSubmit, type AcceptedSubmit } from './minimax-rules.js';

/** One task the fake MiniMax accepted. */
export interface FakeMiniMaxTask {
  readonly taskId: string;
  readonly fileId: string;
  readonly submit: AcceptedSubmit;
  /** Queries answered so far. */
  queries: number;
  /** When it finished (the fake's clock, ms), once it has. */
  finishedAt: number | undefined;
}

export interface FakeMiniMaxOptions {
  /** The key MiniMax takes as a bearer token. */
  readonly apiKey?: string;
  /** Queries answered `Preparing`, `Queueing`, then `Processing` before the task is done. */
  readonly queriesUntilDone?: number;
  /** How long a download link lasts from the retrieval that signed it. */
  readonly linkLifetimeSeconds?: number;
  /** The fake's clock (epoch ms): links expire by it. */
  readonly now?: () => number;
}

export interface FakeMiniMax {
  /** The `base_url` a `type: minimax` provider is configured with. */
  readonly url: string;
  /** MiniMax's API: every request, refused ones included. */
  readonly api: ScriptedUpstream;
  /** The storage its download links point at (another origin, as MiniMax's CDN is). */
  readonly cdn: ScriptedUpstream;
  readonly tasks: Map<string, FakeMiniMaxTask>;
  /** The download links handed out, in order. */
  readonly links: string[];
  /** Tasks stay `Processing` while held. */
  hold: boolean;
  /** The account cannot pay: submits are refused with 1008. */
  balanceExhausted: boolean;
  queriesUntilDone: number;
  /** The next this many links are handed out already expired (a gateway that came back too late to use them). */
  expireNextLinks: number;
  /** Moves the fake's clock on. */
  advance(milliseconds: number): void;
  close(): Promise<void>;
}

const ok = { status_code: 0, status_msg: 'success' };
/** MiniMax's verdicts come with HTTP 200 (its error code table: https://platform.minimax.io/docs/api-reference/errorcode). */
const refusal = (code: number, message: string, extra: Record<string, unknown> = {}): Reply => json({ ...extra, base_resp: { status_code: code, status_msg: message } });
const statuses = ['Preparing', 'Queueing', 'Processing'] as const;
const signingSecret = 'fake-oss-secret';

/** A 15-digit id, as MiniMax's task and file ids are. */
function nextId(counter: { value: number }): string {
  counter.value += 1;
  return String(106_916_112_212_032 + counter.value * 7919);
}

function sign(path: string, expires: number): string {
  return createHmac('sha256', signingSecret).update(`${path}\n${expires}`).digest('base64url');
}

/** The MP4 a finished task delivers: real H.264 at its resolution's frame, its length long. */
async function videosByShape(): Promise<Map<string, Buffer>> {
  const videos = new Map<string, Buffer>();
  for (const size of new Set(Object.values(frameSizes))) {
    const encoded = await encodedSecondFor(size);
    if (encoded === undefined) continue;
    for (const seconds of [6, 10]) videos.set(`${size}/${seconds}`, await muxMp4(encoded, seconds));
  }
  return videos;
}

/**
 * MiniMax's video API as the gateway meets it: `POST /v1/video_generation`, `GET
 * /v1/query/video_generation?task_id=` (Preparing, Queueing, Processing, then Success or Fail),
 * `GET /v1/files/retrieve?file_id=` naming a signed download link on a separate storage origin,
 * which answers 403 once the link has expired. A missing or wrong bearer key, a parameter MiniMax
 * does not take, an exhausted balance (1008) and a sensitive prompt (1026) are refused as MiniMax
 * refuses them, with HTTP 200 and a non-zero `base_resp.status_code`. A prompt with `FAIL` makes a
 * task that fails, one with `SENSITIVE-OUTPUT` one whose video is withheld (1027). MiniMax has no
 * cancel endpoint, so neither has the fake.
 */
export async function startFakeMiniMax(options: FakeMiniMaxOptions = {}): Promise<FakeMiniMax> {
  const apiKey = options.apiKey ?? 'minimax-key';
  const lifetimeMs = (options.linkLifetimeSeconds ?? 60) * 1000;
  const videos = await videosByShape();
  const tasks = new Map<string, FakeMiniMaxTask>();
  const byFile = new Map<string, FakeMiniMaxTask>();
  const links: string[] = [];
  const ids = { value: 0 };
  let offset = 0;
  const now = (): number => (options.now ?? Date.now)() + offset;

  const cdn = await startScriptedUpstream({ reply: (request) => download(request) });
  const state = {
    hold: false,
    balanceExhausted: false,
    queriesUntilDone: options.queriesUntilDone ?? 3,
    expireNextLinks: 0,
  };

  function submitTask(request: ReceivedRequest): Reply {
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return refusal(2013, 'invalid params, request body is not JSON', { task_id: '' });
    }
    const submit = readSubmit(body);
    if (typeof submit === 'string') return refusal(2013, submit, { task_id: '' });
    if (state.balanceExhausted) return refusal(1008, 'insufficient balance', { task_id: '' });
    if (/\bSENSITIVE-INPUT\b/.test(submit.prompt)) return refusal(1026, 'input new_sensitive', { task_id: '' });
    const task: FakeMiniMaxTask = { taskId: nextId(ids), fileId: nextId(ids), submit, queries: 0, finishedAt: undefined };
    tasks.set(task.taskId, task);
    byFile.set(task.fileId, task);
    return json({ task_id: task.taskId, base_resp: ok });
  }

  function queryTask(url: URL): Reply {
    const task = tasks.get(url.searchParams.get('task_id') ?? '');
    if (task === undefined) return refusal(2013, 'invalid params, task not found');
    task.queries += 1;
    const done = task.finishedAt !== undefined || (!state.hold && task.queries > state.queriesUntilDone);
    if (!done) return json({ task_id: task.taskId, status: statuses[Math.min(task.queries, statuses.length) - 1], file_id: '', base_resp: ok });
    task.finishedAt ??= now();
    if (/\bSENSITIVE-OUTPUT\b/.test(task.submit.prompt)) return json({ task_id: task.taskId, status: 'Fail', file_id: '', base_resp: { status_code: 1027, status_msg: 'output video sensitive' } });
    if (/\bFAIL\b/.test(task.submit.prompt)) return json({ task_id: task.taskId, status: 'Fail', file_id: '', base_resp: ok });
    const [width, height] = (frameSizes[task.submit.resolution] ?? '1280x720').split('x').map(Number);
    return json({ task_id: task.taskId, status: 'Success', file_id: task.fileId, video_width: width, video_height: height, base_resp: ok });
  }

  /** A fresh link at each retrieval, signed until the clock passes its `Expires`. */
  function retrieveFile(url: URL): Reply {
    const task = byFile.get(url.searchParams.get('file_id') ?? '');
    if (task?.finishedAt === undefined) return refusal(2013, 'invalid params, file not found');
    const video = videoOf(task);
    const day = new Date(task.finishedAt).toISOString().slice(0, 10);
    const path = `/inference_output/video/${day}/${task.fileId}/output.mp4`;
    const expired = state.expireNextLinks > 0;
    if (expired) state.expireNextLinks -= 1;
    const expires = Math.floor((expired ? now() - 1000 : now() + lifetimeMs) / 1000);
    const link = `${cdn.url}${path}?Expires=${expires}&OSSAccessKeyId=LTAIfakeminimax&Signature=${sign(path, expires)}`;
    links.push(link);
    const file = { file_id: Number(task.fileId), bytes: video?.length ?? 0, created_at: Math.floor(task.finishedAt / 1000), filename: 'output.mp4', purpose: 'video_generation', download_url: link };
    return json({ file, base_resp: ok });
  }

  function videoOf(task: FakeMiniMaxTask): Buffer | undefined {
    return videos.get(`${frameSizes[task.submit.resolution] ?? ''}/${task.submit.duration}`);
  }

  /** The storage behind the links: OSS's own answers to an expired or tampered link. */
  function download(request: ReceivedRequest): Reply {
    const url = new URL(request.path, cdn.url);
    const match = /^\/inference_output\/video\/[\d-]+\/(\d+)\/output\.mp4$/.exec(url.pathname);
    const task = match === null ? undefined : byFile.get(match[1] as string);
    const expires = Number(url.searchParams.get('Expires'));
    const denied = (message: string): Reply => ({ status: 403, contentType: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error>\n  <Code>AccessDenied</Code>\n  <Message>${message}</Message>\n</Error>\n` });
    if (task === undefined || request.method !== 'GET') return { status: 404, contentType: 'application/xml', body: '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>' };
    if (url.searchParams.get('Signature') !== sign(url.pathname, expires)) return denied('The request signature we calculated does not match the signature you provided.');
    if (now() > expires * 1000) return denied('Request has expired.');
    const video = videoOf(task);
    if (video === undefined) return { status: 500, body: 'no video of this shape' };
    return { status: 200, contentType: 'video/mp4', body: video };
  }

  function answer(request: ReceivedRequest): Reply {
    const url = new URL(request.path, 'http://minimax.invalid');
    if (request.headers.authorization !== `Bearer ${apiKey}`) return refusal(1004, 'not authorized');
    if (request.method === 'POST' && url.pathname === '/v1/video_generation') return submitTask(request);
    if (request.method === 'GET' && url.pathname === '/v1/query/video_generation') return queryTask(url);
    if (request.method === 'GET' && url.pathname === '/v1/files/retrieve') return retrieveFile(url);
    return { status: 404, contentType: 'text/plain', body: '404 page not found' };
  }

  const api = await startScriptedUpstream({ reply: answer });
  return {
    url: api.url,
    api,
    cdn,
    tasks,
    links,
    get hold() {
      return state.hold;
    },
    set hold(value) {
      state.hold = value;
    },
    get balanceExhausted() {
      return state.balanceExhausted;
    },
    set balanceExhausted(value) {
      state.balanceExhausted = value;
    },
    get queriesUntilDone() {
      return state.queriesUntilDone;
    },
    set queriesUntilDone(value) {
      state.queriesUntilDone = value;
    },
    get expireNextLinks() {
      return state.expireNextLinks;
    },
    set expireNextLinks(value) {
      state.expireNextLinks = value;
    },
    advance: (milliseconds) => void (offset += milliseconds),
    close: async () => {
      await api.close();
      await cdn.close();
    },
  };
}
