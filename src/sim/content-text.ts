import { asArray, asRecord, asString } from '../json/json-value.js';

/**
 * The text of a message's content as the chat, Responses and Messages wires all carry it: either
 * a plain string or an array of parts whose `text` fields are joined by newlines (parts without
 * text, such as images, are skipped).
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => asString(asRecord(part)?.text))
    .filter((text) => text !== undefined)
    .join('\n');
}
