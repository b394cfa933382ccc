import type { RankTable } from './rank-table.js';

/** No pair: higher than any rank. */
const noRank = 0x7fffffff;

/** Where each part starts, and the rank of each part merged with the next; reused between calls. */
let partStarts = new Int32Array(256);
let pairRanks = new Int32Array(256);

/** Past this many bytes a piece is merged through a heap: a scan per merge would be quadratic. */
const longPiece = 256;

/**
 * The number of tokens a piece's bytes become under byte-pair encoding, as tiktoken merges: the
 * adjacent pair of parts whose union has the lowest rank is merged (the leftmost on a tie) until no
 * union is a token. A short piece, nearly every piece the split pattern makes, is merged by
 * scanning its pairs for the lowest at each step, as tiktoken does; a long one (a run of letters
 * with no break, which a client may send to be counted) through a heap, so it takes n log n steps
 * rather than n².
 */
export function countMergedParts(table: RankTable, piece: Uint8Array, length: number): number {
  if (length < 2) return length;
  if (length > longPiece) return countMergedPartsOfLongPiece(table, piece, length);
  if (partStarts.length < length + 1) {
    partStarts = new Int32Array(length + 1);
    pairRanks = new Int32Array(length + 1);
  }
  const starts = partStarts;
  const ranks = pairRanks;
  for (let index = 0; index <= length; index += 1) starts[index] = index;
  // ranks[i] is the rank of parts i and i + 1 together; the last part has no pair.
  for (let index = 0; index < length - 1; index += 1) ranks[index] = pairRank(table, piece, index, index + 2);
  ranks[length - 1] = noRank;
  let parts = length;

  while (parts > 1) {
    let lowest = noRank;
    let at = -1;
    for (let index = 0; index < parts - 1; index += 1) {
      const rank = ranks[index] as number;
      if (rank < lowest) {
        lowest = rank;
        at = index;
      }
    }
    if (at === -1) break;
    // Part at + 1 joins part at: drop its start and its pair rank.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at, at + 1, parts);
    parts -= 1;
    ranks[at] = at + 1 < parts ? pairRank(table, piece, starts[at] as number, starts[at + 2] as number) : noRank;
    if (at > 0) ranks[at - 1] = pairRank(table, piece, starts[at - 1] as number, starts[at + 1] as number);
  }
  return parts;
}

/**
 * The same merge for a long piece: each part is a node of a linked list by its first byte, and
 * every pair that is a token waits in a binary min-heap keyed by (rank, position), so the pair
 * taken is the lowest-ranked and, on a tie, the leftmost, as the scan takes it. An entry is stale
 * once either of its parts has been merged since; it is then skipped.
 */
function countMergedPartsOfLongPiece(table: RankTable, piece: Uint8Array, length: number): number {
  const next = new Int32Array(length + 1);
  const previous = new Int32Array(length + 1);
  const pairRankAt = new Int32Array(length).fill(noRank);
  const heap = new MinHeap(length);
  for (let index = 0; index <= length; index += 1) {
    next[index] = index + 1;
    previous[index] = index - 1;
  }
  for (let index = 0; index + 2 <= length; index += 1) {
    const rank = pairRank(table, piece, index, index + 2);
    pairRankAt[index] = rank;
    if (rank !== noRank) heap.push(rank, index);
  }
  let parts = length;
  while (heap.size > 0) {
    const { rank, start } = heap.pop();
    // Merged away, or its pair changed since this entry was pushed.
    if (pairRankAt[start] !== rank || next[start] === -1) continue;
    const joined = next[start] as number;
    const after = next[joined] as number;
    next[start] = after;
    if (after <= length) previous[after] = start;
    next[joined] = -1;
    pairRankAt[joined] = noRank;
    parts -= 1;
    const updated = after < length ? pairRank(table, piece, start, next[after] as number) : noRank;
    pairRankAt[start] = updated;
    if (updated !== noRank) heap.push(updated, start);
    const before = previous[start] as number;
    if (before >= 0) {
      const left = pairRank(table, piece, before, after);
      pairRankAt[before] = left;
      if (left !== noRank) heap.push(left, before);
    }
  }
  return parts;
}

/** A binary min-heap of (rank, start) pairs, one number each: rank × 2³² + start. */
class MinHeap {
  private keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(capacity, 16));
  }

  push(rank: number, start: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const key = rank * 2 ** 32 + start;
    let at = this.size;
    this.size += 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const parentKey = this.keys[parent] as number;
      if (parentKey <= key) break;
      this.keys[at] = parentKey;
      at = parent;
    }
    this.keys[at] = key;
  }

  pop(): { rank: number; start: number } {
    const top = this.keys[0] as number;
    this.size -= 1;
    const last = this.keys[this.size] as number;
    let at = 0;
    for (;;) {
      let child = at * 2 + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && (this.keys[child + 1] as number) < (this.keys[child] as number)) child += 1;
      if ((this.keys[child] as number) >= last) break;
      this.keys[at] = this.keys[child] as number;
      at = child;
    }
    if (this.size > 0) this.keys[at] = last;
    const rank = Math.floor(top / 2 ** 32);
    return { rank, start: top - rank * 2 ** 32 };
  }
}

/**
 * The rank of `piece[start, end)` as gpt-tokenizer looks bytes up during a merge: bytes that are
 * valid UTF-8 are decoded first, and its decoder drops a leading byte order mark, so they are
 * looked up without it (and the few tokens that start with one are never found; the rank file
 * leaves them out). Kept so the counts are gpt-tokenizer's to the token.
 */
function pairRank(table: RankTable, piece: Uint8Array, start: number, end: number): number {
  const rank =
    end - start >= 3 && piece[start] === 0xef && piece[start + 1] === 0xbb && piece[start + 2] === 0xbf && isValidUtf8(piece, start, end)
      ? table.rankOf(piece, start + 3, end)
      : table.rankOf(piece, start, end);
  return rank === -1 ? noRank : rank;
}

/** Whether `bytes[start, end)` is well-formed UTF-8 (no overlong form, no surrogate, nothing past U+10FFFF). */
function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let index = start;
  while (index < end) {
    const lead = bytes[index] as number;
    let size: number;
    let codePoint: number;
    if (lead <= 0x7f) {
      index += 1;
      continue;
    } else if ((lead & 0xe0) === 0xc0) {
      size = 2;
      codePoint = lead & 0x1f;
    } else if ((lead & 0xf0) === 0xe0) {
      size = 3;
      codePoint = lead & 0x0f;
    } else if ((lead & 0xf8) === 0xf0) {
      size = 4;
      codePoint = lead & 0x07;
    } else {
      return false;
    }
    if (index + size > end) return false;
    for (let offset = 1; offset < size; offset += 1) {
      const continuation = bytes[index + offset] as number;
      if ((continuation & 0xc0) !== 0x80) return false;
      codePoint = (codePoint << 6) | (continuation & 0x3f);
    }
    const smallest = size === 2 ? 0x80 : size === 3 ? 0x800 : 0x10000;
    if (codePoint < smallest || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return false;
    index += size;
  }
  return true;
}
