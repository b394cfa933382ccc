import type { EventStreamCodec } from '@smithy/eventstream-codec';
import type { MessageHeaders } from '@smithy/types';

/** One frame of an AWS event stream: an event with its type, or an exception the service raised mid-stream. */
export type EventStreamFrame =
  | { readonly kind: 'event'; readonly eventType: string; readonly payload: string }
  | { readonly kind: 'exception'; readonly exceptionType: string; readonly payload: string };

/** Cuts AWS event-stream bytes into frames, handed on synchronously and in order. */
export interface EventStreamReader {
  push(chunk: Uint8Array): void;
  /** The bytes ended; a frame cut short is reported as an exception. */
  flush(): void;
}

/** Frame bytes that fail their checksum, or a stream cut inside a frame. */
export const malformedStreamType = 'malformedEventStreamException';

export interface EventStreamModules {
  readonly codec: () => EventStreamCodec;
}

// The codec is loaded with the first Bedrock call (its authorization awaits it), never at start,
// and a stream's reader is made synchronously once its bytes begin.
let loaded: EventStreamModules | undefined;
let loading: Promise<EventStreamModules> | undefined;

/** Loads the event-stream codec once; resolves at once when it is loaded already. */
export function loadEventStreamModules(): Promise<EventStreamModules> {
  loading ??= Promise.all([import('@smithy/eventstream-codec'), import('@smithy/util-utf8')]).then(
    ([codecs, utf8]) => {
      loaded = { codec: () => new codecs.EventStreamCodec(utf8.toUtf8, utf8.fromUtf8) };
      return loaded;
    },
    (error: unknown) => {
      // A failed load is not kept: the next call tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The codec if it is loaded; a Bedrock stream is only read after a call that loaded it. */
export function loadedEventStreamModules(): EventStreamModules | undefined {
  return loaded;
}

function headerString(headers: MessageHeaders, name: string): string | undefined {
  const header = headers[name];
  return header?.type === 'string' ? header.value : undefined;
}

const utf8 = new TextDecoder();

/** A frame's prelude: its total length, its headers' length and the prelude's checksum. */
const preludeLength = 12;
/** Prelude and the message's closing checksum: the smallest frame there is. */
const smallestFrame = 16;
/** The largest frame AWS sends (16 MiB); a longer length means the bytes are not an event stream. */
const largestFrame = 16 * 1024 * 1024;

/**
 * Reads AWS's binary event stream (`application/vnd.amazon.eventstream`). Each frame starts with
 * its total length, so frames are cut here from arbitrary chunk boundaries and each whole frame is
 * decoded (and its checksums checked) by the codec; each becomes an `event` (`:event-type`, JSON
 * payload) or an `exception` (`:exception-type`).
 */
export function createEventStreamReader(modules: EventStreamModules, onFrame: (frame: EventStreamFrame) => void): EventStreamReader {
  const codec = modules.codec();
  let held: Uint8Array = new Uint8Array(0);
  let broken = false;

  function fail(reason: string): void {
    broken = true;
    held = new Uint8Array(0);
    onFrame({ kind: 'exception', exceptionType: malformedStreamType, payload: JSON.stringify({ message: reason }) });
  }

  function decode(frameBytes: Uint8Array): EventStreamFrame {
    const message = codec.decode(frameBytes);
    const payload = utf8.decode(message.body);
    if (headerString(message.headers, ':message-type') === 'event') {
      return { kind: 'event', eventType: headerString(message.headers, ':event-type') ?? '', payload };
    }
    // `exception` frames name their type; `error` frames (older services) use `:error-code`.
    const exceptionType = headerString(message.headers, ':exception-type') ?? headerString(message.headers, ':error-code') ?? 'unknownException';
    return { kind: 'exception', exceptionType, payload };
  }

  return {
    push(chunk) {
      if (broken || chunk.byteLength === 0) return;
      held = held.byteLength === 0 ? chunk.slice() : concat(held, chunk);
      let offset = 0;
      while (held.byteLength - offset >= preludeLength) {
        const view = new DataView(held.buffer, held.byteOffset + offset, preludeLength);
        const length = view.getUint32(0, false);
        if (length < smallestFrame || length > largestFrame) {
          fail('The upstream event stream held a frame of an impossible length.');
          return;
        }
        if (held.byteLength - offset < length) break;
        let frame: EventStreamFrame;
        try {
          frame = decode(held.subarray(offset, offset + length));
        } catch {
          fail('The upstream event stream held a frame that failed its checksum.');
          return;
        }
        offset += length;
        onFrame(frame);
      }
      held = offset === 0 ? held : held.slice(offset);
    },
    flush() {
      if (broken || held.byteLength === 0) return;
      fail('The upstream event stream ended inside a frame.');
    },
  };
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.byteLength + second.byteLength);
  joined.set(first, 0);
  joined.set(second, first.byteLength);
  return joined;
}
