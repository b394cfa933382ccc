import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamTarget, VertexSettings } from '../provider-adapter.js';

/** Who publishes a model on Vertex: Google's own models, or Anthropic's Claude on Model Garden. */
export type VertexPublisher = 'google' | 'anthropic';

/**
 * Vertex's regional endpoint for a location; the `global` location has an endpoint without a
 * region prefix.
 */
export function vertexBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/** Claude models are published by Anthropic; every other model id is Google's. */
export function publisherOf(model: string): VertexPublisher {
  return /^claude-/.test(model) ? 'anthropic' : 'google';
}

export function vertexSettings(target: UpstreamTarget): VertexSettings {
  if (target.vertex === undefined) throw new GatewayError('internal_error', 'A Vertex AI route has no project and location.');
  return target.vertex;
}

/** `…/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}`. */
export function vertexModelUrl(target: UpstreamTarget, publisher: VertexPublisher, model = target.model): string {
  const { project, location } = vertexSettings(target);
  const root = target.baseUrl.replace(/\/+$/, '');
  return `${root}/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/${publisher}/models/${model}`;
}

/** Gemini on Vertex: the same methods as the Developer API, SSE chosen by the URL. */
export function vertexGenerateUrl(target: UpstreamTarget, stream: boolean): string {
  const base = vertexModelUrl(target, 'google', target.model.replace(/^models\//, ''));
  return stream ? `${base}:streamGenerateContent?alt=sse` : `${base}:generateContent`;
}

/** Claude on Vertex: the Messages body at `rawPredict`, its SSE stream at `streamRawPredict`. */
export function vertexClaudeUrl(target: UpstreamTarget, stream: boolean): string {
  return `${vertexModelUrl(target, 'anthropic')}:${stream ? 'streamRawPredict' : 'rawPredict'}`;
}

/** Claude's token count on Vertex: one address for every model, which the body names. */
export function vertexClaudeCountUrl(target: UpstreamTarget): string {
  return `${vertexModelUrl(target, 'anthropic', 'count-tokens')}:rawPredict`;
}
