import { GatewayError } from '../../../errors/gateway-error.js';
import type { SubmittedVideoJob, VideoGenerationRequest } from '../../../ir/video-generation.js';
import { asString, isRecord } from '../../../json/json-value.js';
import type { UpstreamCall, UpstreamTarget, VideoGeneration } from '../../provider-adapter.js';
import { assertMiniMaxSuccess } from '../decode-error.js';
import { miniMaxGetHeaders, miniMaxHeaders, miniMaxRoot } from '../minimax-endpoint.js';
import { decodeHailuoFile, decodeHailuoTask } from './decode-hailuo-task.js';
import { checkHailuoRoute, hailuoResolution, knownHailuoModel } from './hailuo-models.js';

/** MiniMax's limit on a prompt, in characters. */
const maxPromptCharacters = 2000;

/** The first frame as MiniMax takes it: a data URI of the client's image, or a link it fetches itself. */
function firstFrame(request: VideoGenerationRequest): { first_frame_image: string } | Record<string, never> {
  const reference = request.inputReference;
  if (reference === undefined) return {};
  if ('url' in reference) return { first_frame_image: reference.url };
  return { first_frame_image: `data:${reference.mediaType};base64,${Buffer.from(reference.bytes).toString('base64')}` };
}

/**
 * `POST /v1/video_generation`: the model, prompt, length and resolution (MiniMax takes no aspect
 * ratio; the variant was checked at start to be one the model makes) and the first frame.
 */
function buildSubmit(request: VideoGenerationRequest, target: UpstreamTarget): UpstreamCall {
  if ([...request.prompt].length > maxPromptCharacters) {
    throw new GatewayError('invalid_field', `This model's upstream (MiniMax) takes prompts of at most ${maxPromptCharacters} characters.`, { param: 'prompt' });
  }
  const body = {
    model: target.model,
    prompt: request.prompt,
    duration: request.seconds,
    resolution: hailuoResolution(request.resolution),
    ...firstFrame(request),
  };
  return { method: 'POST', url: `${miniMaxRoot(target)}/v1/video_generation`, headers: miniMaxHeaders(target), body: JSON.stringify(body) };
}

/** The task's id, once MiniMax said the submit succeeded (its refusals come with HTTP 200). */
function decodeSubmit(body: unknown): SubmittedVideoJob {
  assertMiniMaxSuccess(body);
  const taskId = isRecord(body) ? asString(body.task_id) : undefined;
  if (taskId === undefined || taskId === '') throw new GatewayError('upstream_invalid_response', 'MiniMax accepted the video without naming its task.');
  return { upstreamJobId: taskId };
}

/**
 * MiniMax Hailuo video: a task submitted, queried until `Success`, then its file looked up for a
 * download link (the `result` call) at every poll that finds it done (the link is signed for some hours, so a
 * download retried later asks for a fresh one). MiniMax has no endpoint to cancel a task: a job
 * deleted before it finishes is only no longer polled.
 */
export const hailuoVideoGeneration: VideoGeneration = {
  buildSubmit,
  decodeSubmit: (body) => decodeSubmit(body),
  buildPoll: (taskId, target) => ({ method: 'GET', url: `${miniMaxRoot(target)}/v1/query/video_generation?task_id=${encodeURIComponent(taskId)}`, headers: miniMaxGetHeaders(target) }),
  decodePoll: (body) => decodeHailuoTask(body),
  result: {
    build: (fileId, target) => ({ method: 'GET', url: `${miniMaxRoot(target)}/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`, headers: miniMaxGetHeaders(target) }),
    decode: (status, body) => decodeHailuoFile(status, body),
  },
  checkRoute: checkHailuoRoute,
  knownModel: knownHailuoModel,
};
