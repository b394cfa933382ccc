/** A `msg_…` id for the client, from the upstream's id (or the request id when there is none). */
export function messageId(upstreamId: string, requestId: string): string {
  if (upstreamId.startsWith('msg_')) return upstreamId;
  return `msg_${upstreamId === '' ? requestId : upstreamId}`;
}
