import type { Usage } from '../ir/usage.js';
import type { ClientFormat } from '../formats/client-format.js';
import { findTopLevelValue, matchTrailingTopLevelValue } from './rewrite-body.js';

const usageKey = Buffer.from('"usage"');
const quote = 0x22;
const backslash = 0x5c;

/**
 * Reads usage from the `usage` member only, so the body is never parsed whole. Answers put it near
 * their end, so the bytes are scanned from its last mention on, without decoding them to text:
 * what follows the member's value must close exactly the top-level object, which proves the
 * member top-level; only the value's bytes are then decoded and parsed. A mention the scan cannot
 * prove goes the slower way: the text from the mention on, then the whole body scanned.
 */
export function usageFromBytes(context: { readonly format: Pick<ClientFormat, 'usageFromBody'> }, bytes: Buffer): Usage | undefined {
  const lastMention = bytes.lastIndexOf(usageKey);
  if (lastMention === -1) return undefined;
  const range = trailingMemberValue(bytes, lastMention, usageKey.length);
  if (range === undefined) return usageFromText(context, bytes, lastMention);
  try {
    return context.format.usageFromBody({ usage: JSON.parse(bytes.toString('utf8', range.start, range.end)) as unknown });
  } catch {
    return undefined;
  }
}

/**
 * Where the value of the member whose name starts at `keyStart` lies, when the bytes prove it a member of the
 * top-level object: a member name follows `{` or `,` (a quote inside a string would be escaped,
 * so one after `{` or `,` opens a string, and a string followed by `:` is a name), and what
 * follows its value closes one object more than it opens, then ends.
 */
function trailingMemberValue(bytes: Buffer, keyStart: number, keyLength: number): { start: number; end: number } | undefined {
  let before = keyStart - 1;
  while (before >= 0 && isJsonWhitespace(bytes[before] as number)) before--;
  if (bytes[before] !== 0x2c && bytes[before] !== 0x7b) return undefined;
  let cursor = skipWhitespace(bytes, keyStart + keyLength);
  if (bytes[cursor] !== 0x3a) return undefined;
  cursor = skipWhitespace(bytes, cursor + 1);
  const end = afterValue(bytes, cursor);
  return closesTopLevelObject(bytes, end) ? { start: cursor, end } : undefined;
}

function usageFromText(context: { readonly format: Pick<ClientFormat, 'usageFromBody'> }, bytes: Buffer, lastMention: number): Usage | undefined {
  // Room before the key for the scanner to see the `,` or `{` that opens the member (member names
  // are ASCII, so the byte offset found is a character boundary).
  let text = bytes.toString('utf8', Math.max(0, lastMention - 16));
  let range = matchTrailingTopLevelValue(text, 'usage');
  if (range === undefined) {
    text = bytes.toString('utf8');
    range = findTopLevelValue(text, 'usage');
  }
  if (range === undefined) return undefined;
  try {
    return context.format.usageFromBody({ usage: JSON.parse(text.slice(range.start, range.end)) as unknown });
  } catch {
    return undefined;
  }
}

/** The index just past the value starting at `start` (strings skipped, brackets counted). */
function afterValue(bytes: Buffer, start: number): number {
  const first = bytes[start];
  if (first === quote) return afterString(bytes, start);
  let depth = 0;
  let index = start;
  const length = bytes.length;
  while (index < length) {
    const code = bytes[index] as number;
    if (code === quote) {
      index = afterString(bytes, index);
      continue;
    }
    if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      // A scalar ends at the bracket closing its container; an object or array just after its own.
      if (depth === 0) return index;
      depth--;
      if (depth === 0) return index + 1;
    } else if (depth === 0 && (code === 0x2c || isJsonWhitespace(code))) return index;
    index++;
  }
  return length;
}

/** True when the bytes from `start` close exactly one more object or array than they open, then end. */
function closesTopLevelObject(bytes: Buffer, start: number): boolean {
  let depth = 1;
  let index = start;
  const length = bytes.length;
  while (index < length) {
    const code = bytes[index] as number;
    if (code === quote) {
      index = afterString(bytes, index);
      continue;
    }
    if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      depth--;
      if (depth === 0) return skipWhitespace(bytes, index + 1) === length;
    }
    index++;
  }
  return false;
}

function afterString(bytes: Buffer, start: number): number {
  let index = start + 1;
  const length = bytes.length;
  while (index < length) {
    const code = bytes[index];
    if (code === backslash) index += 2;
    else if (code === quote) return index + 1;
    else index++;
  }
  return length;
}

function skipWhitespace(bytes: Buffer, start: number): number {
  let index = start;
  while (index < bytes.length && isJsonWhitespace(bytes[index] as number)) index++;
  return index;
}

/** JSON's four whitespace characters (RFC 8259 §2). */
function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
