import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { falInputIssues } from './fal-input-rules.js';

/** How one submitted request goes: polls spent queued and running, then what its result answers. */
export interface FalRequestPlan {
  /** Status polls answered `IN_QUEUE`, the position counting down to 0. */
  readonly queuedPolls: number;
  /** Status polls answered `IN_PROGRESS` (with a percentage in the logs) before `COMPLETED`. */
  readonly runningPolls: number;
  /** The result once completed: a video on the CDN, or an error answer (fal has no failed status). */
  readonly outcome: { readonly video: Buffer } | { readonly status: number; readonly body: unknown };
}

/** One call the queue host received. */
export interface ReceivedFalCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

export interface FalQueuedRequest {
  readonly id: string;
  readonly endpointId: string;
  readonly input: unknown;
  /** Replaceable while the request runs: a test may hold a request queued, then let it finish. */
  plan: FalRequestPlan;
  state: 'queued' | 'running' | 'completed' | 'cancelled';
  polls: number;
  completedAt?: number;
}

export interface FakeFal {
  /** The queue's root, as a provider's `base_url` (fal's is https://queue.fal.run). */
  readonly url: string;
  /** The CDN's origin: another server, as fal's `v3.fal.media` is another host. */
  readonly cdnUrl: string;
  readonly key: string;
  readonly calls: ReceivedFalCall[];
  readonly cdnCalls: { readonly path: string; readonly headers: IncomingMessage['headers'] }[];
  readonly requests: Map<string, FalQueuedRequest>;
  /** Decides each submitted request's course; tests replace it. */
  plan: (endpointId: string, input: unknown) => FalRequestPlan;
  /** The fake's clock: CDN files expire by it, so a test can move a day on without waiting one. */
  readonly clock: { now(): number; advance(ms: number): void };
  close(): Promise<void>;
}

export interface FakeFalOptions {
  readonly key?: string;
  /** How long a finished request's file stays on the CDN (fal's per-request `expiration_duration_seconds`). */
  readonly fileLifetimeMs?: number;
  readonly plan?: (endpointId: string, input: unknown) => FalRequestPlan;
}

function send(response: ServerResponse, status: number, body: unknown, requestId?: string): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(requestId === undefined ? {} : { 'x-fal-request-id': requestId }) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The queue path of a request: the endpoint id's owner and app (what fal's SDK builds), `requests`, its id. */
function appOf(endpointId: string): string {
  return endpointId.split('/').slice(0, 2).join('/');
}

const requestPath = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/;

/**
 * A stand-in for fal's queue (`queue.fal.run`) and CDN, speaking the queue protocol as fal documents
 * it (https://docs.fal.ai/model-endpoints/queue) and as `@fal-ai/client` calls it: `Authorization:
 * Key …` on every queue call; submit answers the request's URLs; status answers 202 `IN_QUEUE`
 * (with `queue_position`) or `IN_PROGRESS` (with logs), then 200 `COMPLETED`; the result holds the
 * output, or the request's error as its own HTTP answer — `{"detail":"Request is still in
 * progress"}` (400) before it is done; cancel is a PUT. The output file lives on a second server
 * and expires `fileLifetimeMs` after completion by the fake's clock.
 */
export async function startFakeFal(options: FakeFalOptions = {}): Promise<FakeFal> {
  const key = options.key ?? 'fal-test-key';
  const lifetimeMs = options.fileLifetimeMs ?? 60_000;
  let offsetMs = 0;
  const clock = { now: () => Date.now() + offsetMs, advance: (ms: number) => void (offsetMs += ms) };
  const calls: ReceivedFalCall[] = [];
  const cdnCalls: FakeFal['cdnCalls'] = [];
  const requests = new Map<string, FalQueuedRequest>();
  const queueServer = createServer();
  const cdnServer = createServer();
  const url = await listen(queueServer);
  const cdnUrl = await listen(cdnServer);
  const fake: FakeFal = {
    url,
    cdnUrl,
    key,
    calls,
    cdnCalls,
    requests,
    clock,
    plan: options.plan ?? (() => ({ queuedPolls: 1, runningPolls: 1, outcome: { status: 500, body: { detail: 'no plan' } } })),
    close: async () => {
      await Promise.all([queueServer, cdnServer].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };

  const urls = (request: FalQueuedRequest): Record<string, string> => {
    const base = `${url}/${appOf(request.endpointId)}/requests/${request.id}`;
    return { request_id: request.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  /** A status poll moves the request on by one step of its plan. */
  const statusOf = (request: FalQueuedRequest): { status: number; body: Record<string, unknown> } => {
    if (request.state === 'queued' || request.state === 'running') {
      const poll = request.polls++;
      if (poll < request.plan.queuedPolls) return { status: 202, body: { status: 'IN_QUEUE', queue_position: request.plan.queuedPolls - 1 - poll, ...urls(request) } };
      if (poll < request.plan.queuedPolls + request.plan.runningPolls) {
        request.state = 'running';
        const percent = Math.round((100 * (poll - request.plan.queuedPolls + 1)) / (request.plan.runningPolls + 1));
        return { status: 202, body: { status: 'IN_PROGRESS', logs: [{ message: `Generating: ${percent}%`, level: 'INFO', source: 'USER', timestamp: new Date(clock.now()).toISOString() }], ...urls(request) } };
      }
      request.state = 'completed';
      request.completedAt = clock.now();
    }
    return { status: 200, body: { status: 'COMPLETED', logs: null, metrics: { inference_time: 0.5 }, ...urls(request) } };
  };

  const resultOf = (request: FalQueuedRequest): { status: number; body: unknown } => {
    if (request.state === 'queued' || request.state === 'running') return { status: 400, body: { detail: 'Request is still in progress' } };
    // fal does not document a cancelled request's result; the fake answers it as a failed one.
    if (request.state === 'cancelled') return { status: 400, body: { detail: 'Request was cancelled.' } };
    const issues = falInputIssues(request.endpointId, request.input);
    if (issues.length > 0) return { status: 422, body: { detail: issues } };
    const outcome = request.plan.outcome;
    if (!('video' in outcome)) return { status: outcome.status, body: outcome.body };
    return { status: 200, body: { video: { url: `${cdnUrl}/files/${request.id}/output.mp4`, content_type: 'video/mp4', file_name: 'output.mp4', file_size: outcome.video.length } } };
  };

  queueServer.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const body = await readBody(request);
      const parsed = new URL(request.url ?? '/', url);
      calls.push({ method: request.method ?? 'GET', path: `${parsed.pathname}${parsed.search}`, headers: request.headers, body });
      if (request.headers.authorization !== `Key ${key}`) {
        // fal's exact wording for a refused key is not documented; its shape (`detail`) is FastAPI's, as elsewhere.
        send(response, 401, { detail: 'Invalid or missing credentials: send Authorization: Key <FAL_KEY>.' });
        return;
      }
      const matched = requestPath.exec(parsed.pathname);
      const queued = matched === null ? undefined : requests.get(matched[2] ?? '');
      if (matched !== null && queued !== undefined && appOf(queued.endpointId) === matched[1]) {
        const [, , , action] = matched;
        if (action === '/status' && request.method === 'GET') {
          const answer = statusOf(queued);
          send(response, answer.status, answer.body, queued.id);
        } else if (action === '/cancel' && request.method === 'PUT') {
          if (queued.state === 'completed') send(response, 400, { status: 'ALREADY_COMPLETED' });
          else {
            queued.state = 'cancelled';
            send(response, 202, { status: 'CANCELLATION_REQUESTED' });
          }
        } else if (action === undefined && request.method === 'GET') {
          const answer = resultOf(queued);
          send(response, answer.status, answer.body, queued.id);
        } else send(response, 405, { detail: 'Method Not Allowed' });
        return;
      }
      if (matched !== null) {
        send(response, 404, request.method === 'PUT' ? { status: 'NOT_FOUND' } : { detail: 'Request not found' });
        return;
      }
      if (request.method !== 'POST') {
        send(response, 404, { detail: 'Not Found' });
        return;
      }
      const endpointId = parsed.pathname.replace(/^\/+|\/+$/g, '');
      const id = randomUUID();
      const queuedRequest: FalQueuedRequest = { id, endpointId, input: body, plan: fake.plan(endpointId, body), state: 'queued', polls: 0 };
      requests.set(id, queuedRequest);
      send(response, 200, { status: 'IN_QUEUE', queue_position: queuedRequest.plan.queuedPolls, ...urls(queuedRequest) }, id);
    })();
  });

  cdnServer.on('request', (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const path = new URL(request.url ?? '/', cdnUrl).pathname;
    cdnCalls.push({ path, headers: request.headers });
    const file = /^\/files\/([^/]+)\/output\.mp4$/.exec(path);
    const queued = file === null ? undefined : requests.get(file[1] ?? '');
    const outcome = queued?.plan.outcome;
    const alive = queued?.completedAt !== undefined && clock.now() < queued.completedAt + lifetimeMs;
    if (outcome === undefined || !('video' in outcome) || !alive) {
      // An expired file is gone for good ("Expired files are permanently deleted", fal's data retention page).
      send(response, 404, { detail: 'File not found' });
      return;
    }
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': outcome.video.length });
    response.end(outcome.video);
  });

  return fake;
}
