import { createParseOrThrow, type PathKey } from './parse-or-throw.js';

/** A path the way OpenAI's errors name a field: `messages[2].content[0].image_url.url`. */
export function openAiParam(path: readonly PathKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** Validation for the OpenAI client formats (chat completions and Responses), worded as OpenAI words it. */
export const parseOrThrow = createParseOrThrow({
  formatParam: openAiParam,
  missingMessage: (param) => `Missing required parameter: '${param}'.`,
  invalidMessage: (param, detail) => `Invalid value for '${param}': ${detail}.`,
});
