import type { Usage } from '../../ir/index.js';
import { parseJson } from '../../json/json-value.js';
import { isChatErrorPayload } from '../../wire/chat/chat-error-payload.js';
import { usageFromChatPayload } from '../../wire/chat/chat-usage.js';
import type { UsageTap } from '../client-format.js';

/**
 * Most chunks say `"usage":null`; only the usage chunk (OpenAI), the finish chunk (DeepSeek) or
 * `x_groq.usage` (Groq) hold an object. Parsing only those keeps passthrough cheap.
 */
const usageObjectPattern = /"usage"\s*:\s*\{/;

export function usageFromChatBody(body: unknown): Usage | undefined {
  return usageFromChatPayload(body);
}

/** Reads usage from a passed-through chat stream without parsing every chunk. */
export function createChatUsageTap(): UsageTap {
  let latest: Usage | undefined;
  let ended = false;
  return {
    observe(_eventName: string | undefined, data: string): void {
      // `[DONE]` ends a chat stream; an error payload ends it too (nothing follows it).
      if (data === '[DONE]' || isChatErrorPayload(data)) ended = true;
      if (!usageObjectPattern.test(data)) return;
      const found = usageFromChatPayload(parseJson(data));
      if (found !== undefined) latest = found;
    },
    usage(): Usage | undefined {
      return latest;
    },
    ended: () => ended,
  };
}
