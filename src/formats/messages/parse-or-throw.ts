import { createParseOrThrow, type PathKey } from '../validation/parse-or-throw.js';

export type { PathKey };

/** A path in Messages notation, as the Messages API names fields in its own errors: `messages.1.content.0.type`. */
export function messagesParam(path: readonly PathKey[]): string {
  return path.map((key) => String(key)).join('.');
}

/** Validation for Messages requests, worded the way the Messages API words it. */
export const parseOrThrow = createParseOrThrow({
  formatParam: messagesParam,
  missingMessage: (param) => `${param}: Field required.`,
  invalidMessage: (param, detail) => `${param}: ${detail}.`,
});
