/** The header of the rank file: "o2kr", version, count of ranks, total of token bytes. */
const headerBytes = 16;
const magic = 0x726b326f; // "o2kr" read as a little-endian u32
const version = 1;

/**
 * A byte-pair vocabulary held compactly: every token's bytes in one Uint8Array, where each rank's
 * bytes start (an Int32Array), and an open-addressing hash table from bytes to rank. About 4.5 MB
 * for o200k's 200,000 tokens, against some 65 MB as JavaScript strings in a Map. Read from the file
 * scripts/generate-o200k-ranks.js writes (its comment gives the layout).
 */
export class RankTable {
  private readonly bytes: Uint8Array;
  private readonly starts: Int32Array;
  /** Rank + 1 at each slot, 0 where empty; a power of two at most half full, probed linearly. */
  private readonly slots: Int32Array;
  private readonly slotMask: number;

  constructor(file: Uint8Array) {
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    if (file.byteLength < headerBytes || view.getUint32(0, true) !== magic || view.getUint32(4, true) !== version) {
      throw new Error('not an o200k rank file of version 1');
    }
    const rankCount = view.getUint32(8, true);
    const byteTotal = view.getUint32(12, true);
    if (file.byteLength !== headerBytes + rankCount + byteTotal) throw new Error('the rank file is cut short or too long');
    const lengths = file.subarray(headerBytes, headerBytes + rankCount);
    this.bytes = file.subarray(headerBytes + rankCount);
    this.starts = new Int32Array(rankCount + 1);
    for (let rank = 0; rank < rankCount; rank += 1) this.starts[rank + 1] = (this.starts[rank] as number) + (lengths[rank] as number);

    let size = 1;
    while (size < rankCount * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.slotMask = size - 1;
    for (let rank = 0; rank < rankCount; rank += 1) {
      const start = this.starts[rank] as number;
      const end = this.starts[rank + 1] as number;
      // A rank of length 0 is one the vocabulary never matches (see the generator).
      if (end === start) continue;
      let slot = hashBytes(this.bytes, start, end) & this.slotMask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.slotMask;
      this.slots[slot] = rank + 1;
    }
  }

  /** The rank of `key[start, end)`, or -1 when those bytes are no token. */
  rankOf(key: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let slot = hashBytes(key, start, end) & this.slotMask;
    for (;;) {
      const entry = this.slots[slot] as number;
      if (entry === 0) return -1;
      const tokenStart = this.starts[entry - 1] as number;
      if ((this.starts[entry] as number) - tokenStart === length && sameBytes(this.bytes, tokenStart, key, start, length)) return entry - 1;
      slot = (slot + 1) & this.slotMask;
    }
  }
}

/** FNV-1a over a byte range. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ (bytes[index] as number), 0x01000193);
  return hash >>> 0;
}

function sameBytes(left: Uint8Array, leftStart: number, right: Uint8Array, rightStart: number, length: number): boolean {
  for (let offset = 0; offset < length; offset += 1) {
    if (left[leftStart + offset] !== right[rightStart + offset]) return false;
  }
  return true;
}
