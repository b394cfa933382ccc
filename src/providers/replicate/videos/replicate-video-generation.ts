import type { VideoGeneration } from '../../provider-adapter.js';
import { predictionsCall, predictionUrl, replicateHeaders, replicateHeadersWithoutBody } from '../replicate-endpoint.js';
import { decodePrediction } from './decode-prediction.js';
import { checkReplicateRoute, knownReplicateModelRecord, replicateVideoInput } from './known-video-models.js';

/**
 * Video models on Replicate: a prediction created on the official model (or on a version), polled
 * at its URL by the worker, cancelled with `POST …/cancel` when the client deletes a running job.
 * The request reaches each model in its own input fields through the model's built-in map.
 */
export const replicateVideoGeneration: VideoGeneration = {
  buildSubmit(request, target) {
    const { url, modelMembers } = predictionsCall(target);
    return { method: 'POST', url, headers: replicateHeaders(target), body: JSON.stringify({ ...modelMembers, input: replicateVideoInput(target.model, request) }) };
  },
  decodeSubmit(body) {
    const { id, state } = decodePrediction(body);
    return { upstreamJobId: id, state };
  },
  buildPoll: (id, target) => ({ method: 'GET', url: predictionUrl(target, id), headers: replicateHeadersWithoutBody(target) }),
  decodePoll: (body) => decodePrediction(body).state,
  buildCancel: (id, target) => ({ method: 'POST', url: `${predictionUrl(target, id)}/cancel`, headers: replicateHeadersWithoutBody(target) }),
  checkRoute: checkReplicateRoute,
  knownModel: knownReplicateModelRecord,
};
