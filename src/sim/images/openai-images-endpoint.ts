import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadSharp } from './load-sharp.js';
import type { JsonRecord } from '../../json/json-value.js';
import { applyHeaderControls, parseDirectives } from '../directives.js';
import { errorBody } from '../error-bodies.js';
import type { SimulatorState } from '../handle-generation.js';
import { readJsonBody } from '../read-json-body.js';
import { ResponseLifetime } from '../response-lifetime.js';
import { sendJson } from '../send-json.js';
import { frameSse } from '../sim-endpoint.js';
import type { SimIdentity } from '../sim-ids.js';
import { simIdentity } from '../sim-ids.js';
import { writeStream } from '../write-stream.js';
import type { OpenAiImageError } from './openai-image-errors.js';
import { invalidRequest, missingParameter, moderationBlocked } from './openai-image-errors.js';
import type { FieldSource } from './openai-image-options.js';
import { readOpenAiImageOptions } from './openai-image-options.js';
import { inputImageTokens, promptTokens } from './openai-image-usage.js';
import type { ImageAnswerPlan } from './openai-images-answer.js';
import { imageEvents, imagesResponse } from './openai-images-answer.js';
import { readMultipartForm } from './read-multipart-form.js';
import { asksForRefusal } from './refusal-directive.js';

/** The gpt-image family caps an edit at 16 input pictures. */
const maxEditInputs = 16;

interface ImageJob {
  readonly kind: 'generation' | 'edit';
  readonly fields: JsonRecord;
  readonly source: FieldSource;
  readonly inputs: readonly Buffer[];
  readonly mask: Buffer | undefined;
}

/** `POST /v1/images/generations`: a JSON body. */
export async function handleImageGeneration(request: IncomingMessage, response: ServerResponse, state: SimulatorState): Promise<void> {
  const parsed = await readJsonBody(request);
  const identity = simIdentity(state.nextSequence());
  if (parsed.kind !== 'ok') {
    sendBodyProblem(response, identity, parsed.kind === 'too-large' ? undefined : parsed.message);
    return;
  }
  const job: ImageJob = { kind: 'generation', fields: parsed.body, source: 'json', inputs: [], mask: undefined };
  await answerImages(request, response, state, job, identity);
}

/** `POST /v1/images/edits`: a multipart form with `image` (or `image[]`, as the SDK sends several) and `mask`. */
export async function handleImageEdit(request: IncomingMessage, response: ServerResponse, state: SimulatorState): Promise<void> {
  const form = await readMultipartForm(request);
  const identity = simIdentity(state.nextSequence());
  if (form.kind !== 'ok') {
    sendBodyProblem(response, identity, form.kind === 'too-large' ? undefined : form.message);
    return;
  }
  const inputs = form.files.filter((file) => file.field === 'image' || file.field === 'image[]').map((file) => file.data);
  const mask = form.files.find((file) => file.field === 'mask')?.data;
  const job: ImageJob = { kind: 'edit', fields: form.fields, source: 'form', inputs, mask };
  await answerImages(request, response, state, job, identity);
}

function requestIdHeaders(identity: SimIdentity): Record<string, string> {
  return { 'x-request-id': `req_${identity.tag}` };
}

function sendBodyProblem(response: ServerResponse, identity: SimIdentity, message: string | undefined): void {
  const status = message === undefined ? 413 : 400;
  sendJson(response, status, errorBody('openai', status, message ?? 'The request body is too large.', ''), requestIdHeaders(identity));
}

function sendImageError(response: ServerResponse, identity: SimIdentity, error: OpenAiImageError): void {
  sendJson(response, error.status, error.body, requestIdHeaders(identity));
}

/** The size of each input picture, or the 400 naming the first one that is not a picture. */
async function measureInputs(job: ImageJob): Promise<{ sizes: Array<{ width: number; height: number }> } | OpenAiImageError> {
  const sharp = await loadSharp();
  if (job.inputs.length === 0) return missingParameter('image');
  if (job.inputs.length > maxEditInputs) {
    const message = `Invalid 'image': too many images. Expected at most ${maxEditInputs}, but got ${job.inputs.length} instead.`;
    return invalidRequest(message, 'image', 'array_above_max_length');
  }
  const sizes: Array<{ width: number; height: number }> = [];
  for (const [index, input] of job.inputs.entries()) {
    const metadata = await sharp(input).metadata().catch(() => undefined);
    if (metadata?.width === undefined || metadata.height === undefined) {
      return invalidRequest(`Invalid image file or mode for image ${index + 1}, please check your image file.`, 'image', 'invalid_image_file');
    }
    sizes.push({ width: metadata.width, height: metadata.height });
  }
  if (job.mask !== undefined && (await sharp(job.mask).metadata().catch(() => undefined)) === undefined) {
    return invalidRequest('Invalid mask image file, please check your image file.', 'mask', 'invalid_image_file');
  }
  return { sizes };
}

/** An edit at `auto` size takes the standard size nearest the first input's shape. */
function editSize(first: { width: number; height: number } | undefined): string {
  if (first === undefined) return '1024x1024';
  const ratio = first.width / first.height;
  if (ratio > 1.2) return '1536x1024';
  if (ratio < 1 / 1.2) return '1024x1536';
  return '1024x1024';
}

async function answerImages(
  request: IncomingMessage,
  response: ServerResponse,
  state: SimulatorState,
  job: ImageJob,
  identity: SimIdentity,
): Promise<void> {
  const options = readOpenAiImageOptions(job.fields, job.source);
  if (!options.ok) {
    sendImageError(response, identity, options.error);
    return;
  }
  let imageTokens = 0;
  let size = options.value.size;
  if (job.kind === 'edit') {
    const measured = await measureInputs(job);
    if (!('sizes' in measured)) {
      sendImageError(response, identity, measured);
      return;
    }
    imageTokens = measured.sizes.reduce((sum, input) => sum + inputImageTokens(input.width, input.height), 0);
    if (size === 'auto') size = editSize(measured.sizes[0]);
  } else if (size === 'auto') {
    size = '1024x1024';
  }

  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const directives = applyHeaderControls(parseDirectives(options.value.prompt), header);
  const lifetime = new ResponseLifetime(response);
  const streaming = options.value.stream;
  if (streaming) state.streamOpened();
  try {
    if (!(await lifetime.wait(directives.delayMs))) return;
    const headers = requestIdHeaders(identity);
    if (directives.errorStatus !== null) {
      const message = `Simulated error: status ${directives.errorStatus} was requested.`;
      sendJson(response, directives.errorStatus, errorBody('openai', directives.errorStatus, message, ''), headers);
      return;
    }
    if (asksForRefusal(options.value.prompt)) {
      sendImageError(response, identity, moderationBlocked(`req_${identity.tag}`));
      return;
    }
    const plan: ImageAnswerPlan = {
      kind: job.kind,
      options: { ...options.value, size },
      createdAt: identity.createdAt,
      textTokens: promptTokens(options.value.prompt),
      imageTokens,
      inputs: job.inputs,
      mask: job.mask,
    };
    if (!streaming) {
      sendJson(response, 200, await imagesResponse(plan), headers);
      return;
    }
    const events = await imageEvents(plan);
    if (lifetime.closed) return;
    response.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    await writeStream(response, lifetime, events.map(frameSse), directives.paceMs);
  } finally {
    if (streaming) state.streamClosed();
  }
}
