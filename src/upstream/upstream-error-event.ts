/**
 * Whether an event of an upstream's stream is an error the upstream sends inside it: `event: error`
 * (Messages, Responses, the Images API), Responses' `response.failed`, or chat's
 * `data: {"error": …}`. Its text is the upstream's own, which may echo the gateway's credential or
 * the upstream's host, so a relay scrubs the piece of the stream that ends it.
 */
export function isUpstreamErrorEvent(name: string | undefined, data: string): boolean {
  return name === 'error' || name === 'response.failed' || data.startsWith('{"error"');
}
