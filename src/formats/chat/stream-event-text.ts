import { asArray, asRecord, asString, parseJson, readRecord } from '../../json/json-value.js';

/** Whether a passed-through chat chunk can carry answer text: only its choices' deltas do. */
export function chatStreamEventCarriesText(data: string): boolean {
  return data.includes('"delta"');
}

/**
 * The answer text one passed-through chat chunk carries (content, reasoning, refusal, tool names
 * and arguments), for counting the output of a stream whose usage never came.
 */
export function chatStreamEventText(data: string): string {
  if (!chatStreamEventCarriesText(data)) return '';
  let text = '';
  for (const choice of asArray(asRecord(parseJson(data))?.['choices'])) {
    const delta = readRecord(asRecord(choice), 'delta');
    if (delta === undefined) continue;
    for (const field of ['content', 'reasoning_content', 'reasoning', 'refusal']) text += asString(delta[field]) ?? '';
    for (const call of asArray(delta['tool_calls'])) {
      const fn = readRecord(asRecord(call), 'function');
      text += (asString(fn?.['name']) ?? '') + (asString(fn?.['arguments']) ?? '');
    }
  }
  return text;
}
