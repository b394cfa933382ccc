import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { refusalOf, runwayModelRules } from './runway-model-rules.js';
import { runwayOutputVideo } from './runway-output-video.js';

/** How a task submitted to the fake ends. */
export type RunwayOutcome =
  /** `staleOutputs`: that many SUCCEEDED answers first hand out a URL already expired. */
  | { readonly kind: 'succeed'; readonly staleOutputs?: number }
  | { readonly kind: 'fail'; readonly failure: string; readonly failureCode?: string }
  /** Stays RUNNING until cancelled: for deletes and restarts mid-job. */
  | { readonly kind: 'keep-running' };

/** One step a task shows at successive polls before its outcome: a status, or RUNNING's progress. */
export type RunwayStep = 'PENDING' | 'THROTTLED' | number;

export interface FakeRunwayTask {
  readonly id: string;
  readonly createdAt: string;
  readonly endpoint: 'text_to_video' | 'image_to_video';
  readonly body: Record<string, unknown>;
  readonly outcome: RunwayOutcome;
  polls: number;
  /** SUCCEEDED answers given so far. */
  outputs: number;
  cancelled: boolean;
  deleted: boolean;
}

/** A call the fake's API received, refused ones included. */
export interface RunwayCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown> | undefined;
  readonly status: number;
}

/** A download from the output host: whether it carried a credential, and how it was answered. */
export interface OutputDownload {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly status: number;
}

export interface FakeRunwayOptions {
  readonly apiKey?: string;
  /** How long an output URL is good for after the poll that handed it out (Runway: 24–48 hours). */
  readonly outputTtlMs?: number;
  /** What a task shows at its first polls, before its outcome. */
  readonly steps?: readonly RunwayStep[];
  /** The fake's clock (epoch milliseconds), which output links expire by; `advance` moves it on. */
  readonly now?: () => number;
}

export interface FakeRunway {
  /** The `base_url` of a `type: runway` provider, and the `baseURL` of `@runwayml/sdk`. */
  readonly url: string;
  readonly apiKey: string;
  readonly calls: RunwayCall[];
  readonly downloads: OutputDownload[];
  /** Every output URL handed out, in order. */
  readonly handedOut: string[];
  readonly tasks: ReadonlyMap<string, FakeRunwayTask>;
  /** The outcome of the next task submitted (then the default, success, again). */
  plan(outcome: RunwayOutcome): void;
  /** Cancels a task as its owner could in Runway's dashboard. */
  cancelAtRunway(taskId: string): void;
  /** Moves the fake's clock on: output URLs handed out before then may expire. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/** The versions the fake serves: the one Runway's SDKs send. */
const knownVersions = ['2024-11-06'];
const defaultSteps: readonly RunwayStep[] = ['PENDING', 'THROTTLED', 0.3, 0.7];
const day = 24 * 60 * 60 * 1000;

function send(response: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    response.writeHead(status);
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Runway's API as the gateway meets it: a bearer key and `X-Runway-Version` on every call (a
 * missing or unknown version refused with 400), submits checked against each model's ratios and
 * lengths, tasks that go PENDING → THROTTLED → RUNNING (progress a fraction) → SUCCEEDED, FAILED
 * or CANCELLED as planned, `DELETE /v1/tasks/{id}` cancelling a live task and deleting a finished
 * one. Outputs are served from a separate host (Runway's CloudFront) at signed URLs that expire
 * by the fake's clock, as Runway's do within a day or two.
 */
export async function startFakeRunway(options: FakeRunwayOptions = {}): Promise<FakeRunway> {
  const apiKey = options.apiKey ?? `key_${'0123456789abcdef'.repeat(8)}`;
  const outputTtlMs = options.outputTtlMs ?? day;
  const steps = options.steps ?? defaultSteps;
  const calls: RunwayCall[] = [];
  const downloads: OutputDownload[] = [];
  const handedOut: string[] = [];
  const tasks = new Map<string, FakeRunwayTask>();
  const planned: RunwayOutcome[] = [];
  let offsetMs = 0;
  const clock = options.now ?? Date.now;
  const now = (): number => clock() + offsetMs;

  const output = createServer((request, response) => {
    void serveOutput(request, response);
  });
  const outputUrl = await listen(output);

  async function serveOutput(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', outputUrl);
    const match = /^\/([^/]+)\/video\.mp4$/.exec(url.pathname);
    const task = match === null ? undefined : tasks.get(match[1] ?? '');
    const expires = Number(Buffer.from(url.searchParams.get('_jwt') ?? '', 'base64url').toString('utf8'));
    const authorization = request.headers.authorization;
    let status = 200;
    if (task === undefined || task.deleted) status = 404;
    // CloudFront answers an expired signature with 403 AccessDenied.
    else if (!Number.isFinite(expires) || expires <= now()) status = 403;
    downloads.push({ path: url.pathname, authorization, status });
    if (status !== 200 || task === undefined) {
      const text = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access denied</Message></Error>';
      response.writeHead(status, { 'content-type': 'text/xml' });
      response.end(text);
      return;
    }
    const bytes = await runwayOutputVideo(String(task.body['ratio']), durationOf(task));
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
    response.end(bytes);
  }

  function durationOf(task: FakeRunwayTask): number {
    const given = task.body['duration'];
    return typeof given === 'number' ? given : (runwayModelRules[String(task.body['model'])]?.defaultDuration ?? 5);
  }

  function credits(task: FakeRunwayTask): number {
    return durationOf(task) * (runwayModelRules[String(task.body['model'])]?.creditsPerSecond ?? 0);
  }

  /** The task as `GET /v1/tasks/{id}` shows it now, each poll one step further along. */
  function taskAnswer(task: FakeRunwayTask): Record<string, unknown> {
    const base = { id: task.id, createdAt: task.createdAt };
    if (task.cancelled) return { ...base, status: 'CANCELLED', cost: { credits: 0 } };
    const step = task.outcome.kind === 'keep-running' ? (steps[task.polls] ?? 0.99) : steps[task.polls];
    task.polls += 1;
    if (step !== undefined) {
      const estimatedCost = { credits: credits(task) };
      return typeof step === 'number' ? { ...base, status: 'RUNNING', progress: step, estimatedCost } : { ...base, status: step, estimatedCost };
    }
    if (task.outcome.kind === 'fail') {
      return { ...base, status: 'FAILED', failure: task.outcome.failure, ...(task.outcome.failureCode === undefined ? {} : { failureCode: task.outcome.failureCode }), cost: { credits: 0 } };
    }
    // Every poll hands out a fresh URL: "fetch the task again to get fresh URLs".
    const stale = task.outputs < (task.outcome.kind === 'succeed' ? (task.outcome.staleOutputs ?? 0) : 0);
    task.outputs += 1;
    const token = Buffer.from(String(stale ? now() - 1 : now() + outputTtlMs), 'utf8').toString('base64url');
    const link = `${outputUrl}/${task.id}/video.mp4?_jwt=${token}`;
    handedOut.push(link);
    return { ...base, status: 'SUCCEEDED', output: [link], cost: { credits: credits(task) } };
  }

  async function serveApi(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://runway.invalid').pathname;
    const text = await readBody(request);
    let body: Record<string, unknown> | undefined;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      body = undefined;
    }
    const answer = (status: number, payload?: unknown): void => {
      calls.push({ method, path, headers: request.headers, body, status });
      send(response, status, payload);
    };
    if (request.headers.authorization !== `Bearer ${apiKey}`) return answer(401, { error: 'Invalid API key.' });
    const version = request.headers['x-runway-version'];
    if (version === undefined) return answer(400, { error: 'The X-Runway-Version header is required. Set it to 2024-11-06.' });
    if (typeof version !== 'string' || !knownVersions.includes(version)) return answer(400, { error: `Invalid API version: ${String(version)}.` });

    const submit = /^\/v1\/(text_to_video|image_to_video)$/.exec(path);
    if (submit !== null && method === 'POST') {
      const endpoint = submit[1] as FakeRunwayTask['endpoint'];
      if (body === undefined) return answer(400, { error: 'The request body must be JSON.' });
      const refusal = refusalOf(endpoint, body);
      if (refusal !== undefined) return answer(400, { error: refusal });
      const task: FakeRunwayTask = { id: randomUUID(), createdAt: new Date(now()).toISOString(), endpoint, body, outcome: planned.shift() ?? { kind: 'succeed' }, polls: 0, outputs: 0, cancelled: false, deleted: false };
      tasks.set(task.id, task);
      return answer(200, { id: task.id, estimatedCost: { credits: credits(task) } });
    }
    const taskPath = /^\/v1\/tasks\/([^/]+)$/.exec(path);
    const task = taskPath === null ? undefined : tasks.get(decodeURIComponent(taskPath[1] ?? ''));
    if (taskPath !== null && (task === undefined || task.deleted)) return answer(404, { error: 'Task not found.' });
    if (task !== undefined && method === 'GET') return answer(200, taskAnswer(task));
    if (task !== undefined && method === 'DELETE') {
      // A live task is cancelled (and can still be fetched as CANCELLED); a finished one is deleted.
      const finished = task.cancelled || (task.outcome.kind !== 'keep-running' && task.polls > steps.length);
      if (finished) task.deleted = true;
      else task.cancelled = true;
      return answer(204);
    }
    return answer(404, { error: `Not found: ${method} ${path}` });
  }

  const api = createServer((request, response) => {
    void serveApi(request, response);
  });
  const url = await listen(api);

  return {
    url,
    apiKey,
    calls,
    downloads,
    handedOut,
    tasks,
    plan: (outcome) => {
      planned.push(outcome);
    },
    cancelAtRunway: (taskId) => {
      const task = tasks.get(taskId);
      if (task !== undefined) task.cancelled = true;
    },
    advance: (ms) => {
      offsetMs += ms;
    },
    close: async () => {
      await Promise.all([close(api), close(output)]);
    },
  };
}
