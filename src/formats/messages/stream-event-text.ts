import { asRecord, asString, parseJson, readRecord } from '../../json/json-value.js';

/** Whether a passed-through Messages event can carry answer text: only `content_block_delta` does. */
export function messagesStreamEventCarriesText(data: string): boolean {
  return data.includes('"content_block_delta"');
}

/**
 * The answer text one passed-through Messages event carries (a `content_block_delta`'s text,
 * thinking or tool input), for counting the output of a stream whose usage never came.
 */
export function messagesStreamEventText(data: string): string {
  if (!messagesStreamEventCarriesText(data)) return '';
  const delta = readRecord(asRecord(parseJson(data)), 'delta');
  if (delta === undefined) return '';
  return (asString(delta['text']) ?? '') + (asString(delta['thinking']) ?? '') + (asString(delta['partial_json']) ?? '');
}
