import { isChatErrorPayload } from '../wire/chat/chat-error-payload.js';

/** Event names that carry an upstream's error: Messages', Responses' and the Images API's. */
export const errorEventNames: readonly string[] = ['error', 'response.failed'];

/**
 * Whether an event of an upstream's stream is an error the upstream sends inside it: `event: error`
 * (Messages, Responses, the Images API), Responses' `response.failed`, chat's `data: {"error": …}`
 * or vLLM's `data: {"object":"error", …}`. Its text is the upstream's own, which may echo the
 * gateway's credential or the upstream's host, so a relay scrubs that event before relaying it.
 */
export function isUpstreamErrorEvent(name: string | undefined, data: string): boolean {
  return (name !== undefined && errorEventNames.includes(name)) || isChatErrorPayload(data);
}

/**
 * Whether the first characters of an event's data may still become an error payload (the rest of
 * the event is yet to come): `{`, `{"err`, `{"object":"er` may; `{"id"` may not.
 */
export function mayBecomeErrorPayload(dataStart: string): boolean {
  const compact = dataStart.replace(/\s+/g, '');
  return errorPayloadStarts.some((start) => start.startsWith(compact));
}

/** The error payloads' starts without whitespace, for `mayBecomeErrorPayload`. */
const errorPayloadStarts = ['{"error"', '{"object":"error"'];
