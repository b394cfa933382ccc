import { asRecord, asString, parseJson } from '../../json/json-value.js';

/** Every `*.delta` event of a Responses stream adds its `delta` text to the answer. */
const deltaEventPattern = /"type"\s*:\s*"response\.[a-z_.]*\.delta"/;

/** Whether a passed-through Responses event can carry answer text: only the `*.delta` events do. */
export function responsesStreamEventCarriesText(data: string): boolean {
  return deltaEventPattern.test(data);
}

/**
 * The answer text one passed-through Responses event carries (output text, reasoning, refusal,
 * tool arguments), for counting the output of a stream whose usage never came.
 */
export function responsesStreamEventText(data: string): string {
  if (!responsesStreamEventCarriesText(data)) return '';
  return asString(asRecord(parseJson(data))?.['delta']) ?? '';
}
