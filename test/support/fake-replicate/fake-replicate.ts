import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodedSecondFor } from '../../../src/sim/videos/encoded-second.js';
import { muxMp4 } from '../../../src/sim/videos/mux-mp4.js';
import { checkInput } from './model-inputs.js';
import { completedAt, endingOf, predictionObject, renderMsOf, statusAt, type FakePrediction } from './prediction-lifecycle.js';

/** One request the fake received, as a test inspects it. */
export interface FakeReplicateRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** An answer the next create request gets instead of a prediction (402, 422, 429, …). */
export interface ScriptedRefusal {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FakeReplicateOptions {
  /** The API token the fake accepts as `Authorization: Bearer …`. */
  readonly token?: string;
  /** The fake's clock, epoch milliseconds: inject one to move time past a URL's expiry. */
  readonly now?: () => number;
  /** How long a prediction stays `starting`, and renders, unless its prompt says otherwise. */
  readonly queueMs?: number;
  readonly renderMs?: number;
}

export interface FakeReplicate {
  /** The API root as replicate-javascript's `baseUrl` takes it (`…/v1`). */
  readonly baseUrl: string;
  /** The separate origin output files are served from, as replicate.delivery is. */
  readonly deliveryUrl: string;
  readonly apiRequests: FakeReplicateRequest[];
  readonly deliveryRequests: FakeReplicateRequest[];
  readonly predictions: Map<string, FakePrediction>;
  refuseNextCreate(refusal: ScriptedRefusal): void;
  close(): Promise<void>;
}

/** A delivery URL lives a minute after its prediction ends: later the file is gone (404). */
export const outputUrlLifetimeMs = 60_000;

const predictionPath = /^\/v1\/predictions\/([a-z0-9]+)(\/cancel)?$/;
const officialPath = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/;
const filePath = /^\/pbxt\/([a-z0-9]+)\/output\.mp4$/;

function send(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Replicate's ids: 26 lowercase letters and digits. */
function predictionId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(26), (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * A fake Replicate speaking the predictions API as replicate-javascript expects it: Bearer checked
 * on every API call, official-model and version creates, `starting` → `processing` → an ending,
 * cancel, `Prefer: wait` answered at once with the state of the moment, problem-details errors,
 * and output files on a separate delivery origin that expire a minute after the prediction ends.
 */
export async function startFakeReplicate(options: FakeReplicateOptions = {}): Promise<FakeReplicate> {
  const token = options.token ?? 'r8_fake_replicate_token';
  const now = options.now ?? (() => Date.now());
  const predictions = new Map<string, FakePrediction>();
  const refusals: ScriptedRefusal[] = [];
  const apiRequests: FakeReplicateRequest[] = [];
  const deliveryRequests: FakeReplicateRequest[] = [];
  let apiRoot = '';
  let deliveryOrigin = '';

  const outputUrl = (id: string): string => `${deliveryOrigin}/pbxt/${id}/output.mp4`;
  const answer = (prediction: FakePrediction): Record<string, unknown> => predictionObject(prediction, now(), apiRoot, outputUrl(prediction.id));

  function create(response: ServerResponse, model: string, version: string, body: Record<string, unknown>): void {
    const refusal = refusals.shift();
    if (refusal !== undefined) return send(response, refusal.status, refusal.body, refusal.headers);
    const input = typeof body.input === 'object' && body.input !== null ? (body.input as Record<string, unknown>) : {};
    const checked = checkInput(model, input);
    if ('detail' in checked) return send(response, 422, { title: 'Input validation failed', detail: checked.detail, status: 422 });
    const prompt = String(input.prompt);
    const prediction: FakePrediction = {
      id: predictionId(),
      model,
      version,
      input,
      createdAt: now(),
      queueMs: options.queueMs ?? 100,
      renderMs: renderMsOf(prompt, options.renderMs ?? 300),
      ending: endingOf(prompt),
      ...checked,
    };
    predictions.set(prediction.id, prediction);
    send(response, 201, answer(prediction));
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const method = request.method ?? 'GET';
    apiRequests.push({ method, path, headers: request.headers, body });
    if (request.headers.authorization !== `Bearer ${token}`) {
      return send(response, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 });
    }
    const parsed = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
    const official = officialPath.exec(path);
    if (official !== null && method === 'POST') {
      const model = `${decodeURIComponent(official[1] ?? '')}/${decodeURIComponent(official[2] ?? '')}`;
      return create(response, model, createHash('sha256').update(model).digest('hex'), parsed);
    }
    if (path === '/v1/predictions' && method === 'POST') {
      const version = typeof parsed.version === 'string' ? parsed.version : '';
      if (!/^[0-9a-f]{64}$/.test(version)) {
        return send(response, 422, { title: 'Invalid version or not permitted', detail: 'The specified version does not exist (or perhaps you don\'t have permission to use it?)', status: 422 });
      }
      return create(response, `community/${version.slice(0, 8)}`, version, parsed);
    }
    const matched = predictionPath.exec(path);
    const prediction = matched === null ? undefined : predictions.get(matched[1] ?? '');
    if (matched === null || prediction === undefined) return send(response, 404, { title: 'Not found', detail: 'Not found.', status: 404 });
    if (matched[2] !== undefined && method === 'POST') {
      if (completedAt(prediction, now()) === undefined) prediction.canceledAt = now();
      return send(response, 200, answer(prediction));
    }
    if (method === 'GET') return send(response, 200, answer(prediction));
    send(response, 405, { title: 'Method not allowed', detail: `${method} is not allowed here.`, status: 405 });
  }

  async function handleDelivery(request: IncomingMessage, response: ServerResponse): Promise<void> {
    await readBody(request);
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    deliveryRequests.push({ method: request.method ?? 'GET', path, headers: request.headers, body: '' });
    const prediction = predictions.get(filePath.exec(path)?.[1] ?? '');
    const ended = prediction === undefined ? undefined : completedAt(prediction, now());
    if (prediction === undefined || ended === undefined || statusAt(prediction, now()) !== 'succeeded' || now() > ended + outputUrlLifetimeMs) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('Not Found');
      return;
    }
    const encoded = (await encodedSecondFor(prediction.size)) ?? (await encodedSecondFor('1280x720'));
    if (encoded === undefined) throw new Error('the simulator has no 1280x720 frames');
    const bytes = await muxMp4(encoded, prediction.seconds);
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) });
    response.end(bytes);
  }

  const fail = (response: ServerResponse) => (error: unknown) => {
    if (!response.headersSent) send(response, 500, { title: 'Internal error', detail: String(error), status: 500 });
    else response.destroy();
  };
  const api = createServer((request, response) => void handleApi(request, response).catch(fail(response)));
  const delivery = createServer((request, response) => void handleDelivery(request, response).catch(fail(response)));
  apiRoot = `${await listen(api)}/v1`;
  deliveryOrigin = await listen(delivery);
  const close = (server: Server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });

  return {
    baseUrl: apiRoot,
    deliveryUrl: deliveryOrigin,
    apiRequests,
    deliveryRequests,
    predictions,
    refuseNextCreate: (refusal) => void refusals.push(refusal),
    close: async () => {
      await Promise.all([close(api), close(delivery)]);
    },
  };
}
