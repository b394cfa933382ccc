import { GatewayError } from '../../../errors/gateway-error.js';
import type { SubmittedVideoJob, UpstreamVideoState, VideoGenerationRequest } from '../../../ir/video-generation.js';
import { asRecord, asString } from '../../../json/json-value.js';
import type { UpstreamCall, UpstreamTarget, VideoGeneration } from '../../provider-adapter.js';
import { renderInputMap, type VideoInputMap } from '../../video-input-map.js';
import { falHeaders } from '../fal-headers.js';
import { checkFalRoute, knownFalVideoModel } from './check-fal-route.js';
import { decodeFalQueueStatus, decodeFalResult } from './fal-queue-state.js';
import { falVideoModel } from './fal-video-models.js';

/** The route's own map, else the one of the endpoint the gateway knows. */
function inputMapOf(target: UpstreamTarget): VideoInputMap {
  const map = target.input ?? falVideoModel(target.model)?.input;
  // Refused at start (check-fal-route.ts); reached only if a config skipped that check.
  if (map === undefined) throw new GatewayError('upstream_invalid_response', `The fal endpoint '${target.model}' has no input map: give its route one.`);
  return map;
}

/** A submit to fal's queue: the endpoint id is the path, the body the endpoint's own input. */
function buildSubmit(request: VideoGenerationRequest, target: UpstreamTarget): UpstreamCall {
  const body = renderInputMap(inputMapOf(target), request);
  return { method: 'POST', url: `${target.baseUrl}/${target.model}`, headers: falHeaders(target, true), body: JSON.stringify(body) };
}

/**
 * The request's place in the queue, kept as the path of its `response_url` below the queue's root
 * (`fal-ai/kling-video/requests/{id}`): status and cancel are that path's `/status` and `/cancel`,
 * as fal's SDK builds them, and every call goes to the provider's configured root, so the key is
 * never sent to a host an answer names. Without a `response_url`, the path is the SDK's own: the
 * endpoint id's owner and app, `requests`, the request id.
 */
function queuePath(body: Record<string, unknown>, target: UpstreamTarget): string {
  const responseUrl = asString(body['response_url']);
  if (responseUrl !== undefined && URL.canParse(responseUrl)) {
    const rootPath = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
    const path = new URL(responseUrl).pathname;
    const below = rootPath !== '' && path.startsWith(`${rootPath}/`) ? path.slice(rootPath.length) : path;
    const trimmed = below.replace(/^\/+/, '');
    if (/\/requests\/[^/]+$/.test(trimmed)) return trimmed;
  }
  const requestId = asString(body['request_id']);
  if (requestId === undefined || requestId === '') throw new GatewayError('upstream_invalid_response', 'fal accepted the video without naming its request.');
  const [owner, app] = target.model.split('/');
  return `${owner}/${app}/requests/${encodeURIComponent(requestId)}`;
}

function decodeSubmit(body: unknown, target: UpstreamTarget): SubmittedVideoJob {
  const record = asRecord(body);
  if (record === undefined) throw new GatewayError('upstream_invalid_response', 'fal answered the submit with something that is not a queue entry.');
  const upstreamJobId = queuePath(record, target);
  // fal's documented submit answer names only the request; its SDK's type adds `IN_QUEUE` and a position.
  const queued: UpstreamVideoState = { status: 'queued', progress: 0 };
  return { upstreamJobId, state: queued };
}

/** fal's queue: submit, follow the status, read the result, cancel with PUT. */
export const falVideoGeneration: VideoGeneration = {
  buildSubmit,
  decodeSubmit,
  // `logs=1`: a running request's logs are where a runner reports its percentage, when it does.
  buildPoll: (queued, target) => ({ method: 'GET', url: `${target.baseUrl}/${queued}/status?logs=1`, headers: falHeaders(target, false) }),
  decodePoll: (body) => decodeFalQueueStatus(body),
  buildCancel: (queued, target) => ({ method: 'PUT', url: `${target.baseUrl}/${queued}/cancel`, headers: falHeaders(target, false) }),
  result: {
    build: (queued, target) => ({ method: 'GET', url: `${target.baseUrl}/${queued}`, headers: falHeaders(target, false) }),
    decode: (status, body) => decodeFalResult(status, body),
  },
  checkRoute: checkFalRoute,
  knownModel: knownFalVideoModel,
  takesInputMap: true,
};
