import type { UpstreamTarget } from '../provider-adapter.js';

/**
 * The generateContent URL for a target. The base URL is configured without the version
 * (`https://generativelanguage.googleapis.com`), but a trailing `/v1beta` is tolerated; a
 * `models/` prefix on the model id (the API's own resource name) is tolerated too.
 */
export function geminiGenerateUrl(target: UpstreamTarget, stream: boolean): string {
  const base = geminiModelUrl(target);
  // Gemini switches to SSE by URL, not by a body flag.
  return stream ? `${base}:streamGenerateContent?alt=sse` : `${base}:generateContent`;
}

/** The `:predict` URL that Imagen models answer on. */
export function geminiPredictUrl(target: UpstreamTarget): string {
  return `${geminiModelUrl(target)}:predict`;
}

/** The API root without any version segment. */
export function geminiRoot(target: UpstreamTarget): string {
  return target.baseUrl.replace(/\/+$/, '').replace(/\/v1beta$/, '');
}

export function geminiModelUrl(target: UpstreamTarget): string {
  const model = target.model.replace(/^models\//, '');
  return `${geminiRoot(target)}/v1beta/models/${model}`;
}

export function geminiHeaders(target: UpstreamTarget): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.apiKey) headers['x-goog-api-key'] = target.apiKey;
  return { ...headers, ...target.headers };
}
