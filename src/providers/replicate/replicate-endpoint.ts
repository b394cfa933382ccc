import type { UpstreamTarget } from '../provider-adapter.js';
import { parseReplicateModel } from './replicate-model-ref.js';

/** The Bearer token and the operator's headers; JSON bodies only. */
export function replicateHeaders(target: UpstreamTarget): Record<string, string> {
  return {
    'content-type': 'application/json',
    ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
    ...target.headers,
  };
}

/** A GET or a body-less POST carries no content type. */
export function replicateHeadersWithoutBody(target: UpstreamTarget): Record<string, string> {
  const { 'content-type': _json, ...headers } = replicateHeaders(target);
  return headers;
}

/** Where a prediction of the route's model is created, and the body members that name the model. */
export function predictionsCall(target: UpstreamTarget): { readonly url: string; readonly modelMembers: Readonly<Record<string, string>> } {
  const reference = parseReplicateModel(target.model);
  if (reference.kind === 'official') {
    return { url: `${target.baseUrl}/models/${encodeURIComponent(reference.owner)}/${encodeURIComponent(reference.name)}/predictions`, modelMembers: {} };
  }
  return { url: `${target.baseUrl}/predictions`, modelMembers: { version: reference.version } };
}

/**
 * A prediction's own URL (what its `urls.get` names), built from the configured root rather than
 * taken from the answer: a proxy or test root the operator chose stays the one called, and the
 * token never goes wherever an answer points.
 */
export function predictionUrl(target: UpstreamTarget, id: string): string {
  return `${target.baseUrl}/predictions/${encodeURIComponent(id)}`;
}
