/**
 * Whether a chat stream's `data:` payload is an error instead of a chunk: OpenAI's `{"error": …}`
 * (spaced or not, as servers format it) or vLLM's `{"object":"error", …}`. Runs on every chunk of
 * every chat stream, so only the start is looked at, by one regular expression anchored there.
 */
export function isChatErrorPayload(data: string): boolean {
  return chatErrorStart.test(data);
}

const chatErrorStart = /^\{\s*(?:"error"|"object"\s*:\s*"error")/;
