import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chunkFrame, converseFrame, exceptionFrame } from './event-stream-frames.js';
import { claudeAnswer, claudeStreamEvents, converseAnswer, converseStreamEvents, type ConverseStreamEvent } from './default-answers.js';
import { bedrockErrorHeaders, checkBedrockCall, type BedrockOperation } from './bedrock-call-checks.js';
import { imageModelFamily, novaCanvasAnswer, stabilityAnswer } from './image-answers.js';
import type { SigningSecret } from './verify-sigv4.js';

export type { BedrockOperation } from './bedrock-call-checks.js';

/** One answer a test scripts; each request takes the next, and without one the defaults answer. */
export type BedrockReply =
  | { readonly kind: 'invoke'; readonly body: unknown }
  | { readonly kind: 'invoke-stream'; readonly events: readonly unknown[]; readonly exception?: { readonly type: string; readonly body: Readonly<Record<string, unknown>> } }
  | { readonly kind: 'converse'; readonly body: unknown }
  | { readonly kind: 'converse-stream'; readonly events: readonly ConverseStreamEvent[]; readonly exception?: { readonly type: string; readonly body: Readonly<Record<string, unknown>> } }
  | { readonly kind: 'count'; readonly inputTokens: number }
  | { readonly kind: 'error'; readonly status: number; readonly errorType: string; readonly message: string };

export interface BedrockRequest {
  readonly method: string;
  /** The path as it came on the wire (the model id escaped). */
  readonly path: string;
  readonly modelId: string;
  readonly operation: BedrockOperation;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
  /** The InvokeModel body: the request's own, or the one a CountTokens request wraps. */
  readonly invokeBody: Record<string, unknown> | undefined;
}

export interface FakeBedrockOptions {
  readonly region?: string;
  /** Keys whose SigV4 signatures it accepts. */
  readonly secret?: SigningSecret;
  /** A Bedrock API key it accepts as `Authorization: Bearer …`. */
  readonly apiKey?: string;
}

export interface FakeBedrock {
  /** The runtime endpoint's root, to configure as a provider's `base_url`. */
  readonly url: string;
  readonly region: string;
  readonly secret: SigningSecret;
  /** Requests that passed authentication and validation, in order. */
  readonly requests: BedrockRequest[];
  /** Requests it refused before answering (a bad signature, a body Bedrock would refuse). */
  readonly refused: { readonly path: string; readonly status: number; readonly errorType: string; readonly message: string }[];
  script(...replies: BedrockReply[]): void;
  /** Answers every request nothing is scripted for from what it asked (a model's turn in a tool loop). */
  respondWith(responder: ((request: BedrockRequest) => BedrockReply | undefined) | undefined): void;
  close(): Promise<void>;
}

export const fakeBedrockSecret: SigningSecret = { accessKeyId: 'AKIAFAKEBEDROCK0001', secretAccessKey: 'fake/Bedrock+Secret/Key0000000000000000' };

/**
 * A stand-in for AWS Bedrock Runtime that checks what Bedrock checks: every call's SigV4 signature
 * is recomputed from the request with the secret it knows (service `bedrock`, its region), or the
 * bearer token is the API key it knows; refusals come in Bedrock's shape (`{"message"}` with
 * `x-amzn-ErrorType`). An InvokeModel body for Claude must carry Bedrock's `anthropic_version` and
 * no `model` or `stream` (Bedrock refuses them as extraneous keys); an image model's body is checked
 * as Nova Canvas or Stability check theirs, and answered with real pictures of the size it asks
 * for (`image-answers.ts`). Streams are real AWS event
 * streams encoded with the AWS SDK's codec, each frame written in two pieces so readers meet frames
 * cut at arbitrary points.
 */
export async function startFakeBedrock(options: FakeBedrockOptions = {}): Promise<FakeBedrock> {
  const region = options.region ?? 'us-east-1';
  const secret = options.secret ?? fakeBedrockSecret;
  const queue: BedrockReply[] = [];
  const requests: BedrockRequest[] = [];
  const refused: FakeBedrock['refused'] = [];
  let responder: ((request: BedrockRequest) => BedrockReply | undefined) | undefined;

  const refuse = (response: ServerResponse, path: string, status: number, errorType: string, message: string): void => {
    refused.push({ path, status, errorType, message });
    response.writeHead(status, bedrockErrorHeaders(errorType));
    response.end(JSON.stringify({ message }));
  };

  const server = createServer((request, response) => {
    const pieces: Buffer[] = [];
    request.on('data', (piece: Buffer) => pieces.push(piece));
    request.on('end', () => handle(request, Buffer.concat(pieces), response));
  });

  function handle(request: IncomingMessage, body: Buffer, response: ServerResponse): void {
    const target = request.url ?? '/';
    const headers = flatHeaders(request);
    const verdict = checkBedrockCall({ method: request.method ?? 'GET', target, headers, body }, { region, secret, ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }) });
    if (!verdict.ok) {
      refuse(response, target, verdict.status, verdict.errorType, verdict.message);
      return;
    }
    const { modelId, operation } = verdict;
    const received: BedrockRequest = { method: 'POST', path: target, modelId, operation, headers, bodyText: body.toString('utf8'), invokeBody: verdict.invokeBody };
    requests.push(received);
    answer(response, operation, modelId, queue.shift() ?? responder?.(received), verdict.invokeBody);
  }

  function answer(response: ServerResponse, operation: BedrockOperation, modelId: string, reply: BedrockReply | undefined, body: Record<string, unknown> | undefined): void {
    if (reply?.kind === 'error') {
      response.writeHead(reply.status, { 'content-type': 'application/json', 'x-amzn-errortype': `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
      response.end(JSON.stringify({ message: reply.message }));
      return;
    }
    const imageFamily = imageModelFamily(modelId);
    if (operation === 'invoke' && reply?.kind !== 'invoke' && imageFamily !== undefined) {
      const drawing = imageFamily === 'nova-canvas' ? novaCanvasAnswer(body ?? {}) : stabilityAnswer(body ?? {});
      void drawing.then((answerBody) => sendJson(response, answerBody));
      return;
    }
    if (operation === 'invoke') return sendJson(response, reply?.kind === 'invoke' ? reply.body : claudeAnswer(modelId));
    if (operation === 'converse') return sendJson(response, reply?.kind === 'converse' ? reply.body : converseAnswer());
    if (operation === 'count-tokens') return sendJson(response, { inputTokens: reply?.kind === 'count' ? reply.inputTokens : 17 });
    if (operation === 'invoke-with-response-stream') {
      const scripted = reply?.kind === 'invoke-stream' ? reply : undefined;
      const frames = (scripted?.events ?? claudeStreamEvents(modelId)).map((event, index) => chunkFrame(event, index));
      if (scripted?.exception !== undefined) frames.push(exceptionFrame(scripted.exception.type, scripted.exception.body));
      return sendFrames(response, frames);
    }
    const scripted = reply?.kind === 'converse-stream' ? reply : undefined;
    const frames = (scripted?.events ?? converseStreamEvents()).map((event, index) => converseFrame(event.type, event.payload, index));
    if (scripted?.exception !== undefined) frames.push(exceptionFrame(scripted.exception.type, scripted.exception.body));
    sendFrames(response, frames);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    region,
    secret,
    requests,
    refused,
    script: (...replies) => void queue.push(...replies),
    respondWith: (given) => {
      responder = given;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  return headers;
}

function sendJson(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id' });
  response.end(JSON.stringify(body));
}

/** Writes each frame in two pieces, a turn apart, so a reader meets frames cut mid-way. */
function sendFrames(response: ServerResponse, frames: readonly Uint8Array[]): void {
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id' });
  let index = 0;
  const next = (): void => {
    const frame = frames[index++];
    if (frame === undefined) {
      response.end();
      return;
    }
    const cut = Math.max(1, Math.floor(frame.byteLength / 3));
    response.write(frame.subarray(0, cut));
    setImmediate(() => {
      response.write(frame.subarray(cut));
      setImmediate(next);
    });
  };
  next();
}
