import { asRecord, asString, parseJson, readRecord } from '../../json/json-value.js';

/**
 * The answer text one passed-through Messages event carries (a `content_block_delta`'s text,
 * thinking or tool input), for counting the output of a stream whose usage never came.
 */
export function messagesStreamEventText(data: string): string {
  if (!data.includes('"content_block_delta"')) return '';
  const delta = readRecord(asRecord(parseJson(data)), 'delta');
  if (delta === undefined) return '';
  return (asString(delta['text']) ?? '') + (asString(delta['thinking']) ?? '') + (asString(delta['partial_json']) ?? '');
}
