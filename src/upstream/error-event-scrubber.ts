import { errorEventNames, isUpstreamErrorEvent, mayBecomeErrorPayload } from './upstream-error-event.js';

/** Scrubs the upstream's error events out of a relayed stream, chunk by chunk. */
export interface ErrorEventScrubber {
  /** Each event the relay's SSE reader finds in a chunk, before that chunk is pushed. */
  observe(name: string | undefined, data: string): void;
  /** The bytes to relay now: the chunk itself when it holds no error event; undefined when all are held. */
  push(chunk: Uint8Array): Uint8Array | undefined;
  /** At the stream's end: `last` (bytes an earlier stage let go only at its end) and what is still held, scrubbed. */
  end(last?: Uint8Array): Uint8Array | undefined;
}

/** What the start of an event says: an error, something else, or too little of it has come yet. */
type EventStart = 'error' | 'other' | 'undecided';

/**
 * An error event bigger than this is no message a client can use: it is dropped rather than held
 * without bound (an upstream that never ends one must not fill the gateway's memory).
 */
const maxHeldBytes = 1024 * 1024;

/** How much of an event's start is read to tell an error: field names, an event name, a payload's first key. */
const startWindow = 256;

const newline = 0x0a;
const carriageReturn = 0x0d;

/**
 * An upstream's error event holds its own text, which may echo the gateway's credential or the
 * upstream's host; `scrub` removes those. Only the bytes of error events are scrubbed (model output
 * in the same chunk is relayed as written), and an event is scrubbed whole: an event whose start
 * looks like an error (`event: error`, `event: response.failed`, `data: {"error"`, vLLM's
 * `data: {"object":"error"`, or too little yet to tell) is held back until its blank line or the
 * stream's end, so no part of it goes out before it can be scrubbed and a secret cut between two
 * chunks is seen whole. Held events end at a blank line, never inside a character, so each is
 * decoded whole.
 *
 * The common case stays cheap: the relay's SSE reader already parses every event and tells this
 * scrubber about each (`observe`); a chunk in which no error event ended and which ends at an
 * event's end is returned as it is, never searched, decoded or copied. Otherwise the chunk's events
 * are found by native byte searches and only their first bytes are read. Events are told apart by
 * blank lines of `\n` or `\r\n` line ends (bare `\r` is used by no upstream the gateway speaks to).
 */
export function createErrorEventScrubber(scrub: (text: string) => string): ErrorEventScrubber {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  /** The start of an event that may be an error, waiting for its end. */
  let held: Buffer | undefined;
  /** Whether the next byte (held or pushed) starts an event, rather than continuing one relayed already. */
  let atEventStart = true;
  /** The two bytes before the next one, so a blank line cut between two chunks is still seen. */
  let before: [number, number] = [newline, newline];
  /** Set while the rest of an oversized error event is being dropped. */
  let discarding = false;
  /** Set when the reader found an error event since the last push: that push's events are looked at. */
  let errorEventObserved = false;

  const scrubbed = (bytes: Buffer): Uint8Array => encoder.encode(scrub(decoder.decode(bytes)));

  function push(input: Uint8Array): Uint8Array | undefined {
    let chunk = asBuffer(input);
    if (discarding) {
      const end = nextBoundaryEnd(chunk, 0, before);
      before = lastTwo(chunk, end === -1 ? chunk.length : end, before);
      if (end === -1) return undefined;
      discarding = false;
      atEventStart = true;
      chunk = chunk.subarray(end);
      if (chunk.length === 0) return undefined;
    }
    const mayHoldError = errorEventObserved;
    errorEventObserved = false;
    if (held === undefined && !mayHoldError && endsWithBlankLine(chunk, before)) {
      before = lastTwo(chunk, chunk.length, before);
      atEventStart = true;
      return chunk;
    }
    const bytes = held === undefined ? chunk : Buffer.concat([held, chunk]);
    const pieces: Uint8Array[] = [];
    let changed = held !== undefined;
    held = undefined;
    let relayFrom = 0;
    let segmentStart = 0;
    let segmentIsEvent = atEventStart;
    for (let boundary = nextBoundaryEnd(bytes, 0, before); boundary !== -1; boundary = nextBoundaryEnd(bytes, boundary, before)) {
      if (segmentIsEvent && (mayHoldError || changed) && isErrorEvent(bytes, segmentStart, boundary)) {
        pieces.push(bytes.subarray(relayFrom, segmentStart), scrubbed(bytes.subarray(segmentStart, boundary)));
        relayFrom = boundary;
        changed = true;
      }
      segmentStart = boundary;
      segmentIsEvent = true;
    }
    let relayTo = bytes.length;
    atEventStart = segmentStart === bytes.length;
    if (segmentIsEvent && !atEventStart && startOf(bytes, segmentStart, bytes.length, false) !== 'other') {
      relayTo = segmentStart;
      changed = true;
      atEventStart = true;
      if (bytes.length - segmentStart > maxHeldBytes) discarding = true;
      else held = Buffer.from(bytes.subarray(segmentStart));
    }
    before = lastTwo(bytes, held === undefined ? bytes.length : relayTo, before);
    if (!changed) return bytes;
    pieces.push(bytes.subarray(relayFrom, relayTo));
    const relayed = Buffer.concat(pieces);
    return relayed.length > 0 ? relayed : undefined;
  }

  return {
    observe(name, data) {
      if (isUpstreamErrorEvent(name, data)) errorEventObserved = true;
    },
    push,
    end(last) {
      const pushed = last === undefined ? undefined : push(last);
      const rest = held;
      held = undefined;
      if (rest === undefined) return pushed;
      const tail = isErrorEvent(rest, 0, rest.length) ? scrubbed(rest) : rest;
      return pushed === undefined ? tail : Buffer.concat([pushed, tail]);
    },
  };
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether the whole event in `bytes[start, end)` is an upstream error. */
function isErrorEvent(bytes: Buffer, start: number, end: number): boolean {
  const fromWindow = startOf(bytes, start, end, true);
  // A start longer than the window (long comments before the fields): the whole event tells.
  return fromWindow === 'undecided' ? classifyEventStart(bytes.toString('latin1', start, end), true) === 'error' : fromWindow === 'error';
}

/** What the first bytes of the event at `start` say; `whole` when the event ends at `end`. */
function startOf(bytes: Buffer, start: number, end: number, whole: boolean): EventStart {
  const windowEnd = Math.min(end, start + startWindow);
  // Field names, event names and a payload's first key are ASCII: latin1 reads them without decoding the event.
  return classifyEventStart(bytes.toString('latin1', start, windowEnd), whole && windowEnd === end);
}

/** Reads an event's lines up to the start of its data, as an SSE parser would. */
export function classifyEventStart(text: string, whole: boolean): EventStart {
  let name: string | undefined;
  let data: string | undefined;
  let position = 0;
  for (;;) {
    while (text.charCodeAt(position) === newline || text.charCodeAt(position) === carriageReturn) position++;
    if (position >= text.length) return whole ? 'other' : 'undecided';
    const lineEnd = lineEndAt(text, position);
    const lineWhole = lineEnd !== -1 || whole;
    const line = text.slice(position, lineEnd === -1 ? text.length : lineEnd);
    if (line.startsWith('data:')) {
      // A payload may run over several data lines, joined by newlines as a parser joins them.
      const piece = line.slice(line.startsWith('data: ') ? 6 : 5);
      data = data === undefined ? piece : `${data}\n${piece}`;
      if (isUpstreamErrorEvent(name, data)) return 'error';
      if (!mayBecomeErrorPayload(data)) return 'other';
      if (!lineWhole) return 'undecided';
    } else {
      if (!lineWhole) return 'undecided';
      if (line.startsWith('event:')) {
        name = line.slice(line.startsWith('event: ') ? 7 : 6);
        if (errorEventNames.includes(name)) return 'error';
      }
    }
    if (lineEnd === -1) return 'other';
    position = lineEnd + 1;
  }
}

function lineEndAt(text: string, from: number): number {
  const newlineAt = text.indexOf('\n', from);
  const returnAt = text.indexOf('\r', from);
  if (newlineAt === -1) return returnAt;
  return returnAt === -1 ? newlineAt : Math.min(newlineAt, returnAt);
}

/** The byte at `index`, reaching back into `before` for the two bytes ahead of `bytes`. */
function byteAt(bytes: Buffer, index: number, before: [number, number]): number | undefined {
  return index >= 0 ? bytes[index] : before[2 + index];
}

/** Whether the `\n` at `index` ends a blank line (`\n\n`, `\r\n\r\n`, `\n\r\n`, `\r\n\n`). */
function endsBlankLine(bytes: Buffer, index: number, before: [number, number]): boolean {
  const previous = byteAt(bytes, index - 1, before);
  return previous === newline || (previous === carriageReturn && byteAt(bytes, index - 2, before) === newline);
}

/** The position just after the next blank line from `from`, or -1. */
function nextBoundaryEnd(bytes: Buffer, from: number, before: [number, number]): number {
  for (let index = bytes.indexOf(newline, from); index !== -1; index = bytes.indexOf(newline, index + 1)) {
    if (endsBlankLine(bytes, index, before)) return index + 1;
  }
  return -1;
}

function endsWithBlankLine(bytes: Buffer, before: [number, number]): boolean {
  return bytes.length > 0 && bytes[bytes.length - 1] === newline && endsBlankLine(bytes, bytes.length - 1, before);
}

/** The two bytes before position `end` of `bytes` (reaching into `before` for a short chunk). */
function lastTwo(bytes: Buffer, end: number, before: [number, number]): [number, number] {
  return [byteAt(bytes, end - 2, before) ?? newline, byteAt(bytes, end - 1, before) ?? newline];
}
