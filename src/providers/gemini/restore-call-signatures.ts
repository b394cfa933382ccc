import type { ContentPart } from '../../ir/index.js';

/**
 * Gemini signs a function call on the functionCall part itself, and Messages `tool_use` blocks
 * and Responses `function_call` items have no slot for that signature. Those client formats hand
 * it out instead in a reasoning element with no text right before the call (a thinking block or
 * reasoning item holding the tagged blob), which the client echoes back. So in an assistant turn,
 * an empty reasoning part with a Gemini blob directly followed by a tool call without one is that
 * call's signature: it goes back on the call, and no separate part is sent for it.
 *
 * Gemini documents the signature of a turn with calls as sitting on its first functionCall, not on
 * an empty part before it, so its own histories do not take this shape; chat clients have no
 * reasoning slot at all and keep getting the stand-in (ensureFirstCallSigned in gemini-contents.ts).
 */
export function restoreCallSignatures(parts: readonly ContentPart[]): ContentPart[] {
  const restored: ContentPart[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index];
    if (part === undefined) continue;
    const next = parts[index + 1];
    if (
      part.type === 'reasoning' &&
      part.text === '' &&
      part.blob?.provider === 'gemini' &&
      next?.type === 'tool-call' &&
      next.blob?.provider !== 'gemini'
    ) {
      restored.push({ ...next, blob: part.blob });
      index += 1;
      continue;
    }
    restored.push(part);
  }
  return restored;
}
