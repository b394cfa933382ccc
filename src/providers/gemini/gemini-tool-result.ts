import type { ToolResultPart } from '../../ir/index.js';
import type { GeminiRequestPart } from './wire/generate-content-request.js';
import { fileToGemini, imageToGemini } from './gemini-media-parts.js';

/**
 * A tool result → a `functionResponse` part (plus any images or files it held, as sibling parts
 * of the same user turn, since `functionResponse.response` is JSON only).
 *
 * Convention for `response` (Gemini wants a JSON object): a result whose text is a JSON object
 * is sent as that object; any other text is wrapped as `{result: "<text>"}`. An error result is
 * sent as `{error: <object or text>}`, the key Gemini's documentation names for failures (any
 * object without `output`/`error` keys is read as the function's output as a whole).
 */
export function toolResultToGemini(part: ToolResultPart, name: string): GeminiRequestPart[] {
  const texts: string[] = [];
  const attachments: GeminiRequestPart[] = [];
  if (typeof part.content === 'string') {
    texts.push(part.content);
  } else {
    for (const item of part.content) {
      if (item.type === 'text') texts.push(item.text);
      else if (item.type === 'image') attachments.push(imageToGemini(item));
      else attachments.push(fileToGemini(item));
    }
  }
  const text = texts.join('\n');
  const asObject = parseJsonObject(text);
  const response = part.isError ? { error: asObject ?? text } : (asObject ?? { result: text });
  return [{ functionResponse: { name, response, id: part.callId } }, ...attachments];
}

/** The text parsed as JSON when it is a JSON object, else undefined. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Not JSON: the caller wraps the text instead.
  }
  return undefined;
}
