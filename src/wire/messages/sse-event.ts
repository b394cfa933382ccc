import type { MessagesStreamEventName } from './messages-types.js';

/**
 * One named SSE event as Messages streams it. The `event:` line is not optional here: Claude
 * Code ignores data-only events and falls back to a non-streamed retry.
 */
export function messagesSseEvent(name: MessagesStreamEventName, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}
