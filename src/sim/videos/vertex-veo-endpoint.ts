import type { IncomingMessage, ServerResponse } from 'node:http';
import { asString } from '../../json/json-value.js';
import { errorBody } from '../error-bodies.js';
import { readJsonBody } from '../read-json-body.js';
import { sendJson } from '../send-json.js';
import { jobVideo } from './sim-video-content.js';
import { decodeJobId, encodeJobId, jobPhase, type SimVideoJob } from './sim-video-job.js';
import { newVeoJob } from './veo-endpoint.js';

/** Vertex's finished operation answers in the Vertex Veo response type, not the Gemini API's. */
const responseType = 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse';

function refuse(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, errorBody('gemini', status, message, ''));
}

/** A Vertex operation as `:fetchPredictOperation` answers it: `{name}` while running, then done. */
async function vertexOperation(name: string, job: SimVideoJob): Promise<Record<string, unknown>> {
  const phase = jobPhase(job, Date.now());
  if (phase.status === 'queued' || phase.status === 'in_progress') return { name };
  if (job.outcome === 'fail') return { name, done: true, error: { code: 13, message: 'The simulator was asked to fail this video.' } };
  if (job.outcome === 'filter') {
    const reasons = ['The simulator filtered this video, as asked by FILTER in the prompt. You will not be charged for this request.'];
    return { name, done: true, response: { '@type': responseType, raiMediaFilteredCount: 1, raiMediaFilteredReasons: reasons } };
  }
  // Without a `storageUri` in the request, Vertex hands the video back inline.
  const video = await jobVideo(job);
  return { name, done: true, response: { '@type': responseType, raiMediaFilteredCount: 0, videos: [{ bytesBase64Encoded: video.toString('base64'), mimeType: 'video/mp4' }] } };
}

/**
 * Veo on Vertex AI: `{model}:predictLongRunning` answers the operation's full resource name,
 * `{model}:fetchPredictOperation` (a POST naming it as `operationName`) its state. The job lives in
 * its id, as the Gemini API's Veo jobs do. `modelPath` is the `projects/…/models/{model}` part of the URL.
 */
export async function handleVertexVeo(method: 'predictLongRunning' | 'fetchPredictOperation', modelPath: string, model: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const parsed = await readJsonBody(request);
  if (parsed.kind !== 'ok') {
    refuse(response, parsed.kind === 'too-large' ? 413 : 400, parsed.kind === 'too-large' ? 'The request body is too large.' : parsed.message);
    return;
  }
  if (method === 'predictLongRunning') {
    const job = newVeoJob(model, parsed.body);
    if (typeof job === 'string') refuse(response, 400, job);
    else sendJson(response, 200, { name: `${modelPath}/operations/${encodeJobId(job)}` });
    return;
  }
  const name = asString(parsed.body.operationName) ?? '';
  const operationId = name.startsWith(`${modelPath}/operations/`) ? name.slice(`${modelPath}/operations/`.length) : '';
  const job = decodeJobId(operationId);
  if (job === undefined) refuse(response, 404, 'Operation not found.');
  else sendJson(response, 200, await vertexOperation(name, job));
}
