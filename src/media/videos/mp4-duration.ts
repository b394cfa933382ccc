/** What an MP4's header says about it; each field absent when the bytes did not tell. */
export interface Mp4Facts {
  readonly durationSeconds?: number;
}

/** A `moov` box larger than this is not buffered: the duration then stays unknown. */
const maxMoovBytes = 64 * 1024 * 1024;

export interface Mp4Probe {
  /** The same chunks, passed on unchanged, read on the way. */
  pass(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>;
  /** What was learnt, once the stream has been read to its end. */
  result(): Mp4Facts;
}

/** Reads `mvhd` inside a whole `moov` payload: version 0 (32-bit) or 1 (64-bit) duration over the timescale. */
function durationFromMoov(moov: Buffer): number | undefined {
  let offset = 0;
  while (offset + 8 <= moov.length) {
    const size = moov.readUInt32BE(offset);
    const type = moov.toString('latin1', offset + 4, offset + 8);
    if (size < 8 || offset + size > moov.length) return undefined;
    if (type === 'mvhd') {
      const version = moov[offset + 8];
      const body = offset + 12;
      if (version === 1 && size >= 40) return Number(moov.readBigUInt64BE(body + 20)) / moov.readUInt32BE(body + 16);
      if (version === 0 && size >= 32) return moov.readUInt32BE(body + 12) / moov.readUInt32BE(body + 8);
      return undefined;
    }
    offset += size;
  }
  return undefined;
}

/**
 * Measures an MP4's duration while it is copied, without holding it: top-level box headers are
 * followed across chunk boundaries, `mdat` and every other box skipped, and only `moov` kept —
 * wherever it sits (first in faststart files, last otherwise). Anything unreadable leaves the
 * duration unknown; the copy itself is never disturbed.
 */
export function createMp4Probe(): Mp4Probe {
  let header = Buffer.alloc(0);
  let skipping = 0;
  let moovParts: Buffer[] | undefined;
  let moovMissing = 0;
  let durationSeconds: number | undefined;
  let broken = false;

  const read = (chunk: Buffer): void => {
    let offset = 0;
    while (offset < chunk.length && !broken) {
      if (moovParts !== undefined) {
        const take = Math.min(moovMissing, chunk.length - offset);
        moovParts.push(chunk.subarray(offset, offset + take));
        moovMissing -= take;
        offset += take;
        if (moovMissing === 0) {
          durationSeconds = durationFromMoov(Buffer.concat(moovParts));
          moovParts = undefined;
        }
        continue;
      }
      if (skipping > 0) {
        const take = Math.min(skipping, chunk.length - offset);
        skipping -= take;
        offset += take;
        continue;
      }
      const needed = header.length < 8 ? 8 : 16;
      const take = Math.min(needed - header.length, chunk.length - offset);
      header = Buffer.concat([header, chunk.subarray(offset, offset + take)]);
      offset += take;
      if (header.length < needed) continue;
      const size32 = header.readUInt32BE(0);
      if (size32 === 1 && header.length < 16) continue;
      const headerSize = size32 === 1 ? 16 : 8;
      const size = size32 === 1 ? Number(header.readBigUInt64BE(8)) : size32;
      const type = header.toString('latin1', 4, 8);
      header = Buffer.alloc(0);
      if (size32 === 0) {
        // The box runs to the end of the file: nothing after it to find.
        broken = type !== 'moov';
        skipping = Number.POSITIVE_INFINITY;
        continue;
      }
      if (size < headerSize || !/^[\x20-\x7e]{4}$/.test(type)) {
        broken = true;
        continue;
      }
      if (type === 'moov' && size - headerSize <= maxMoovBytes) {
        moovParts = [];
        moovMissing = size - headerSize;
        if (moovMissing === 0) moovParts = undefined;
      } else {
        skipping = size - headerSize;
      }
    }
  };

  return {
    async *pass(source) {
      for await (const chunk of source) {
        if (!broken) {
          try {
            read(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          } catch {
            broken = true;
          }
        }
        yield chunk;
      }
    },
    result() {
      return durationSeconds !== undefined && Number.isFinite(durationSeconds) && durationSeconds > 0 ? { durationSeconds } : {};
    },
  };
}
