import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { fakeSize } from './fake-bfl-sizes.js';

/** One request the fake received, whatever became of it. */
export interface BflRequest {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** How a task ends, chosen by a directive in its prompt. */
export type BflOutcome = 'Ready' | 'Request Moderated' | 'Content Moderated' | 'Error' | 'never';

export interface BflTask {
  readonly id: string;
  readonly model: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly width: number;
  readonly height: number;
  readonly format: 'png' | 'jpeg';
  readonly outcome: BflOutcome;
  /** Polls answered so far. */
  polls: number;
  /** When its delivery URL stops working (the fake's clock), once it is ready. */
  sampleExpiresAt?: number;
  /** Times its picture was fetched. */
  deliveries: number;
}

export interface FakeBfl {
  /** The `base_url` of a `type: bfl` provider: the global endpoint. */
  readonly url: string;
  readonly key: string;
  /** Where tasks are polled: a regional cluster's path, as `polling_url` names it. */
  readonly regionalPath: string;
  readonly requests: BflRequest[];
  readonly tasks: Map<string, BflTask>;
  /** Polls a task answers `Pending` before its outcome. */
  pendingPolls: number;
  /** The fake's clock (ms): delivery URLs expire by it. */
  now(): number;
  advanceClock(ms: number): void;
  /** The next `count` submits are refused with this status and body (402 out of credits, 429 too many active tasks). */
  refuseSubmits(status: number, body: unknown, count: number): void;
  close(): Promise<void>;
}

/** BFL's delivery URLs stop working ten minutes after the task is ready. */
export const sampleLifetimeMs = 10 * 60 * 1000;

const notAuthenticated = { detail: 'Not authenticated - Invalid Authentication' };

/**
 * `[request-moderated]`, `[content-moderated]`, `[error]` or `[never]` in a prompt choose how its
 * task ends; `[every-other-fails]` makes every second such task end `Error`.
 */
function outcomeOf(prompt: string, alternating: () => number): BflOutcome {
  if (prompt.includes('[every-other-fails]')) return alternating() % 2 === 0 ? 'Ready' : 'Error';
  if (prompt.includes('[request-moderated]')) return 'Request Moderated';
  if (prompt.includes('[content-moderated]')) return 'Content Moderated';
  if (prompt.includes('[error]')) return 'Error';
  if (prompt.includes('[never]')) return 'never';
  return 'Ready';
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** A picture of exactly the task's size, its colour from its id, in its format. */
async function picture(task: BflTask): Promise<Buffer> {
  const hue = Number.parseInt(task.id.slice(0, 2), 16);
  const image = sharp({ create: { width: task.width, height: task.height, channels: 3, background: { r: hue, g: 255 - hue, b: 128 } } });
  return task.format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

async function inputSize(body: Readonly<Record<string, unknown>>): Promise<{ width: number; height: number } | 'unreadable' | undefined> {
  const input = body.input_image;
  if (typeof input !== 'string') return undefined;
  try {
    const { width, height } = await sharp(Buffer.from(input, 'base64')).metadata();
    return width === undefined || height === undefined ? 'unreadable' : { width, height };
  } catch {
    return 'unreadable';
  }
}

/**
 * Black Forest Labs' API as the gateway meets it (docs.bfl.ai; test/fixtures/bfl/): every call
 * needs the account's `x-key`; `POST /v1/{model}` checks the model's size limits and answers
 * `{ id, polling_url, cost, input_mp, output_mp }` with a polling URL on a regional cluster's path
 * (the global path does not know the task, so a client must poll the URL as given); the task is
 * `Pending`, then `Ready` with `result.sample`, a delivery URL that expires ten minutes later by
 * the fake's clock, or ends as its prompt's directive says.
 */
export async function startFakeBfl(options: { readonly key?: string } = {}): Promise<FakeBfl> {
  const key = options.key ?? 'bfl-test-key';
  const regionalPath = '/eu1';
  const requests: BflRequest[] = [];
  const tasks = new Map<string, BflTask>();
  let clockOffset = 0;
  let alternatingTasks = 0;
  let refusal: { status: number; body: unknown; left: number } | undefined;
  const now = (): number => Date.now() + clockOffset;
  let base = '';

  async function submit(model: string, text: string, response: ServerResponse): Promise<void> {
    if (refusal !== undefined) {
      const { status, body } = refusal;
      refusal.left -= 1;
      if (refusal.left === 0) refusal = undefined;
      send(response, status, body);
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      send(response, 422, { detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] });
      return;
    }
    const input = await inputSize(body);
    if (input === 'unreadable') {
      send(response, 422, { detail: [{ loc: ['body', 'input_image'], msg: 'Could not decode the input image.', type: 'value_error' }] });
      return;
    }
    const size = fakeSize(model, body, input);
    if ('refused' in size) {
      send(response, 422, { detail: [{ loc: ['body'], msg: size.refused, type: 'value_error' }] });
      return;
    }
    const id = randomUUID();
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    const format = body.output_format === 'png' ? 'png' : 'jpeg';
    tasks.set(id, { id, model, body, ...size, format, outcome: outcomeOf(prompt, () => alternatingTasks++), polls: 0, deliveries: 0 });
    const outputMegapixels = Math.round((size.width * size.height) / 10_000) / 100;
    send(response, 200, { id, polling_url: `${base}${regionalPath}/v1/get_result?id=${id}`, cost: Math.round(outputMegapixels * 300) / 100, input_mp: 0, output_mp: outputMegapixels });
  }

  function poll(id: string, response: ServerResponse): void {
    const task = tasks.get(id);
    if (task === undefined) {
      send(response, 200, { id, status: 'Task not found', result: null, progress: null, details: null });
      return;
    }
    task.polls += 1;
    if (task.outcome === 'never' || task.polls <= fake.pendingPolls) {
      send(response, 200, { id, status: 'Pending', result: null, progress: Math.min(0.9, task.polls / (fake.pendingPolls + 1)), details: null });
      return;
    }
    if (task.outcome !== 'Ready') {
      const details = task.outcome.endsWith('Moderated') ? { 'Moderation Reasons': ['Derivative Works'] } : null;
      send(response, 200, { id, status: task.outcome, result: null, progress: null, details });
      return;
    }
    task.sampleExpiresAt ??= now() + sampleLifetimeMs;
    const sample = `${base}/delivery-eu1/${id}/sample.${task.format === 'png' ? 'png' : 'jpg'}?se=${task.sampleExpiresAt}&sig=fake`;
    const prompt = typeof task.body.prompt === 'string' ? task.body.prompt : '';
    send(response, 200, { id, status: 'Ready', result: { sample, prompt, seed: 42, start_time: 1, end_time: 2, duration: 1 }, progress: null, details: null });
  }

  async function deliver(id: string, response: ServerResponse): Promise<void> {
    const task = tasks.get(id);
    if (task === undefined || task.sampleExpiresAt === undefined || now() > task.sampleExpiresAt) {
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end('<Error><Code>AuthenticationFailed</Code><Message>Signed expiry time has passed</Message></Error>');
      return;
    }
    task.deliveries += 1;
    const bytes = await picture(task);
    response.writeHead(200, { 'content-type': task.format === 'png' ? 'image/png' : 'image/jpeg', 'content-length': bytes.length });
    response.end(bytes);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '/';
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
    const url = new URL(path, 'http://fake.invalid');
    const delivery = /^\/delivery-eu1\/([^/]+)\/sample\.(png|jpg)$/.exec(url.pathname);
    // Delivery URLs are signed: they take no key, as a browser would fetch them.
    if (request.method === 'GET' && delivery !== null) return deliver(delivery[1] as string, response);
    if (request.headers['x-key'] !== key) return send(response, 403, notAuthenticated);
    if (request.method === 'GET' && url.pathname === `${regionalPath}/v1/get_result`) return poll(url.searchParams.get('id') ?? '', response);
    // The global endpoint does not hold tasks submitted to a cluster: the polling URL must be used as given.
    if (request.method === 'GET' && url.pathname === '/v1/get_result') return send(response, 200, { id: url.searchParams.get('id'), status: 'Task not found', result: null });
    const model = /^\/v1\/([a-z0-9.-]+)$/.exec(url.pathname);
    if (request.method === 'POST' && model !== null) return submit(model[1] as string, body, response);
    send(response, 404, { detail: 'Not Found' });
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { detail: String(error) });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeBfl = {
    url: base,
    key,
    regionalPath,
    requests,
    tasks,
    pendingPolls: 2,
    now,
    advanceClock(ms) {
      clockOffset += ms;
    },
    refuseSubmits(status, body, count) {
      refusal = count > 0 ? { status, body, left: count } : undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
