import type { RankTable } from './rank-table.js';

/** No pair: higher than any rank. */
const noRank = 0x7fffffff;

/** Where each part starts, and the rank of each part merged with the next; reused between calls. */
let partStarts = new Int32Array(256);
let pairRanks = new Int32Array(256);

/**
 * The number of tokens a piece's bytes become under byte-pair encoding, as tiktoken merges: the
 * adjacent pair of parts whose union has the lowest rank is merged (the leftmost on a tie) until no
 * union is a token. Quadratic in the piece's length, as tiktoken's own merge for short pieces is;
 * the split pattern keeps pieces short.
 */
export function countMergedParts(table: RankTable, piece: Uint8Array, length: number): number {
  if (length < 2) return length;
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
