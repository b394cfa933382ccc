/** A `resp_…` id for the client, derived from the upstream's id (or the request id when there is none). */
export function responseId(upstreamId: string, requestId: string): string {
  if (upstreamId.startsWith('resp_')) return upstreamId;
  const base = (upstreamId === '' ? requestId : upstreamId).replace(/[^A-Za-z0-9_-]/g, '');
  return `resp_${base === '' ? 'switchyard' : base}`;
}

/**
 * An output item id with the prefix OpenAI uses for its kind (`msg_`, `rs_`, `fc_`, `ctc_`). An
 * upstream item id of the same kind is kept, so a client echoing it back reaches the same item.
 */
export function outputItemId(prefix: 'msg' | 'rs' | 'fc' | 'ctc', responseIdentifier: string, outputIndex: number, upstreamItemId?: string): string {
  if (upstreamItemId !== undefined && upstreamItemId.startsWith(`${prefix}_`)) return upstreamItemId;
  return `${prefix}_${responseIdentifier.slice('resp_'.length)}_${outputIndex}`;
}
