/** A `chatcmpl-…` id for the client, derived from the upstream's id (or the request id when there is none). */
export function chatCompletionId(upstreamId: string, requestId: string): string {
  if (upstreamId.startsWith('chatcmpl-')) return upstreamId;
  return `chatcmpl-${upstreamId === '' ? requestId : upstreamId}`;
}
