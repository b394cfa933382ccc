import type * as ReplicatePredictions from './replicate-prediction-endpoint.js';

let loading: Promise<typeof ReplicatePredictions> | undefined;

/** Replicate's predictions, loaded on the first request for one: they bring the MP4 muxer along. */
export function loadReplicatePredictions(): Promise<typeof ReplicatePredictions> {
  loading ??= import('./replicate-prediction-endpoint.js');
  return loading;
}

/** Every path Replicate's predictions and their output files may take. */
export const replicatePath = /^\/v1\/(?:models\/[^/]+\/[^/]+\/predictions|predictions(?:\/[^/]+)*)$|^\/sim-storage\/replicate\//;
