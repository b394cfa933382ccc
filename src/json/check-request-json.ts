import { GatewayError } from '../errors/gateway-error.js';

/**
 * How deep objects and arrays may nest in a request body. Real requests stay far below it (a tool's
 * JSON schema a dozen levels deep is a lot); a body nested thousands deep would exhaust the stack
 * of the code that walks it (validation, translation) and fail as an internal error instead.
 */
export const maxRequestJsonDepth = 128;

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;

/**
 * Refuses a request body (valid JSON text whose value is an object) that nests deeper than
 * `maxRequestJsonDepth`, or that names one top-level member twice. JSON.parse keeps the last of
 * two members with one name, while a passthrough edits the body as text and an upstream may read
 * the first: with two `model` members, the gateway would authorise and price one model and the
 * upstream serve the other. Names are compared as JSON.parse decodes them (`"mod\u0065l"` is
 * `model`). One pass over the text, skipping string contents with indexOf.
 *
 * `memberCount`, the number of members JSON.parse made of the text, spares the names: the text
 * names as many top-level members as that exactly when none is named twice, so only counting is
 * needed, and the names are read (and compared) only to say which one came twice.
 */
export function checkRequestJson(text: string, memberCount?: number): void {
  let depth = 0;
  let keyExpected = false;
  let names: Set<string> | undefined;
  let counted = 0;
  const countOnly = memberCount !== undefined;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === quote) {
      const end = closingQuote(text, index);
      if (depth === 1 && keyExpected) {
        keyExpected = false;
        if (countOnly) counted++;
        else names = withName(names, decodedName(text, index, end));
      }
      index = end;
    } else if (code === openBrace || code === openBracket) {
      depth++;
      if (depth > maxRequestJsonDepth) {
        // The pass that reads names refuses whichever comes first, a repeated name or this depth.
        if (countOnly) checkRequestJson(text);
        throw new GatewayError('invalid_json', `The request body nests objects and arrays more than ${maxRequestJsonDepth} levels deep.`);
      }
      if (depth === 1) keyExpected = code === openBrace;
    } else if (code === closeBrace || code === closeBracket) {
      depth--;
    } else if (code === comma && depth === 1) {
      keyExpected = true;
    }
  }
  // More names than members: one came twice; the pass that reads names says which.
  if (countOnly && counted !== memberCount) checkRequestJson(text);
}

/** Adds a top-level member's name, refusing it the second time. */
function withName(names: Set<string> | undefined, name: string): Set<string> {
  const seen = names ?? new Set<string>();
  if (seen.has(name)) {
    throw new GatewayError('invalid_request', `The request body has the member '${name}' more than once; send each member once.`, { param: name });
  }
  return seen.add(name);
}
/** The index of the quote closing the string opened at `start` (the text is valid JSON). */
function closingQuote(text: string, start: number): number {
  let candidate = text.indexOf('"', start + 1);
  while (candidate !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(candidate - 1 - backslashes) === backslash) backslashes++;
    if (backslashes % 2 === 0) return candidate;
    candidate = text.indexOf('"', candidate + 1);
  }
  return text.length;
}

function decodedName(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
}
