/**
 * Whether a parsed 200 body is an error instead of an answer: some proxies and compatible servers
 * send `{"error": …}` (or Anthropic's `{"type":"error", …}`) with a success status. An answer of
 * any wire format carries its output member, so a body with one is never taken for an error
 * (Responses objects carry `error: null` beside their output).
 */
export function isUpstreamErrorBody(parsed: unknown): boolean {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  const body = parsed as Record<string, unknown>;
  if ('choices' in body || 'content' in body || 'output' in body || 'candidates' in body) return false;
  return body.error !== undefined && body.error !== null;
}
