/**
 * Edits a JSON request body as text, so a passed-through body keeps every byte the client sent
 * except what the gateway must change. Returns undefined when the top-level key cannot be located
 * by the scanner (escaped key names); callers then fall back to re-serialising.
 */
export function replaceTopLevelString(json: string, key: string, value: string): string | undefined {
  const range = findTopLevelValue(json, key);
  if (range === undefined || json.charCodeAt(range.start) !== quote) return undefined;
  return json.slice(0, range.start) + JSON.stringify(value) + json.slice(range.end);
}

/** Inserts `"key":<json value>` as the first member of the top-level object. */
export function insertTopLevelMember(json: string, key: string, valueJson: string): string | undefined {
  const open = json.indexOf('{');
  if (open === -1) return undefined;
  const rest = json.slice(open + 1);
  const empty = /^\s*}/.test(rest);
  return `${json.slice(0, open + 1)}${JSON.stringify(key)}:${valueJson}${empty ? '' : ','}${rest}`;
}

/**
 * Removes a top-level member (its name, value and one separating comma), keeping every other byte.
 * Returns the text unchanged when the scanner finds no such member (an escaped name is not found:
 * callers that know the member is there re-serialise then), undefined when its shape is unexpected.
 */
export function removeTopLevelMember(json: string, key: string): string | undefined {
  const range = findTopLevelValue(json, key);
  if (range === undefined) return json;
  // Back from the value over `:` and whitespace to the member name's opening quote.
  let cursor = range.start - 1;
  while (cursor >= 0 && (isJsonWhitespace(json.charCodeAt(cursor)) || json[cursor] === ':')) cursor--;
  const nameStart = cursor - key.length - 1;
  if (nameStart < 0 || json.slice(nameStart, cursor + 1) !== JSON.stringify(key)) return undefined;
  const after = skipWhitespace(json, range.end);
  if (json[after] === ',') return json.slice(0, nameStart) + json.slice(skipWhitespace(json, after + 1));
  // The last member: the comma before it goes instead.
  let before = nameStart - 1;
  while (before >= 0 && isJsonWhitespace(json.charCodeAt(before))) before--;
  if (json[before] === ',') return json.slice(0, before) + json.slice(range.end);
  return json.slice(0, nameStart) + json.slice(range.end);
}

const quote = 0x22;
const backslash = 0x5c;

interface ValueRange {
  readonly start: number;
  readonly end: number;
}

/** Finds the text range of a top-level member's value by scanning strings and nesting depth. */
export function findTopLevelValue(json: string, key: string): ValueRange | undefined {
  let depth = 0;
  let index = 0;
  const length = json.length;
  while (index < length) {
    const code = json.charCodeAt(index);
    if (code === quote) {
      const end = skipString(json, index);
      if (depth === 1 && json.slice(index + 1, end - 1) === key) {
        let cursor = skipWhitespace(json, end);
        if (json[cursor] === ':') {
          cursor = skipWhitespace(json, cursor + 1);
          return { start: cursor, end: skipValue(json, cursor) };
        }
      }
      index = end;
      continue;
    }
    if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) depth--;
    index++;
  }
  return undefined;
}

/**
 * Finds a top-level member that answers put near their end (`usage`) without scanning the whole
 * text: its last mention is accepted when it opens a member (after `{` or `,`: inside a string the
 * quote would be escaped) and what follows its value closes exactly one more object than it opens,
 * then ends — which proves the member is top-level. The verdict needs only the end of the text,
 * from a few characters before the mention. Undefined means "not proven": scan with
 * `findTopLevelValue` then.
 */
export function matchTrailingTopLevelValue(json: string, key: string): ValueRange | undefined {
  const keyStart = json.lastIndexOf(`"${key}"`);
  if (keyStart === -1) return undefined;
  // A member name follows `{` or `,`; inside a string the quote would have been escaped.
  const before = json.slice(Math.max(0, keyStart - 16), keyStart).trimEnd();
  const opensMember = before.endsWith(',') || before.endsWith('{');
  let cursor = skipWhitespace(json, keyStart + key.length + 2);
  if (opensMember && json[cursor] === ':') {
    cursor = skipWhitespace(json, cursor + 1);
    const end = skipValue(json, cursor);
    if (closesTopLevelObject(json, end)) return { start: cursor, end };
  }
  return undefined;
}

/** True when the text from `start` closes exactly one more object than it opens, then ends. */
function closesTopLevelObject(json: string, start: number): boolean {
  const end = indexAfterClosing(json, start, 1);
  return end !== -1 && skipWhitespace(json, end) === json.length;
}

/**
 * Scans from `start` with `open` brackets already open (strings skipped); returns the index just
 * past the bracket that closes the last of them, or -1 when the text ends first.
 */
function indexAfterClosing(json: string, start: number, open: number): number {
  let depth = open;
  let index = start;
  while (index < json.length) {
    const code = json.charCodeAt(index);
    if (code === quote) {
      index = skipString(json, index);
      continue;
    }
    if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      depth--;
      if (depth === 0) return index + 1;
    }
    index++;
  }
  return -1;
}

function skipString(json: string, start: number): number {
  let index = start + 1;
  while (index < json.length) {
    const code = json.charCodeAt(index);
    if (code === backslash) index += 2;
    else if (code === quote) return index + 1;
    else index++;
  }
  return json.length;
}

function skipWhitespace(json: string, start: number): number {
  let index = start;
  while (index < json.length && isJsonWhitespace(json.charCodeAt(index))) index++;
  return index;
}

/** JSON's four whitespace characters (RFC 8259 §2). */
function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipValue(json: string, start: number): number {
  const first = json.charCodeAt(start);
  if (first === quote) return skipString(json, start);
  if (first === 0x7b || first === 0x5b) {
    const end = indexAfterClosing(json, start, 0);
    return end === -1 ? json.length : end;
  }
  let index = start;
  while (index < json.length) {
    const code = json.charCodeAt(index);
    if (code === 0x2c || code === 0x7d || code === 0x5d || isJsonWhitespace(code)) break;
    index++;
  }
  return index;
}
