import { countMergedParts } from './byte-pair-merge.js';
import { refuseSpecialTokens } from './o200k-special-tokens.js';
import { o200kSplitPattern } from './o200k-split-pattern.js';
import type { RankTable } from './rank-table.js';

/**
 * Pieces whose count is remembered: common words recur, and a lookup in a Map of strings costs
 * less than encoding a piece and hashing its bytes, let alone merging them. The oldest goes first
 * when it is full: a hit then costs one lookup, where keeping the order of use would cost three.
 */
const cachedPieces = 8_192;

/** Longer pieces are rare, and their merge costs more than a lookup saves. */
const longestCachedPiece = 64;

/** In a `u` pattern a surrogate pair is one code point, so only a lone surrogate is of category Cs. */
const loneSurrogate = /\p{Cs}/u;

/** The piece that starts at `lastIndex`, and the next piece from `lastIndex` on. */
const pieceAt = new RegExp(o200kSplitPattern.source, 'uy');
const nextPiece = new RegExp(o200kSplitPattern.source, 'gu');

/**
 * Counts tokens as gpt-tokenizer's o200k `countTokens` does, from a compact rank table: the text is
 * refused if it holds a special token, cut into pieces by o200k's pattern, and each piece counts 1
 * if it is a token itself, else the parts its UTF-8 bytes merge into.
 */
export class O200kCounter {
  private readonly encoder = new TextEncoder();
  private readonly pieceBytes = new Uint8Array(1_024);
  /** Piece → count, oldest first (a Map keeps insertion order). */
  private readonly cache = new Map<string, number>();

  constructor(private readonly table: RankTable) {}

  count(text: string): number {
    refuseSpecialTokens(text);
    let total = 0;
    let start = 0;
    while (start < text.length) {
      // `test` on a sticky pattern finds where the piece at `start` ends without building a match
      // array per piece, as `matchAll` would: a third less CPU and garbage on a long text.
      pieceAt.lastIndex = start;
      if (pieceAt.test(text) && pieceAt.lastIndex > start) {
        const end = pieceAt.lastIndex;
        total += this.countPiece(text.slice(start, end));
        start = end;
        continue;
      }
      // No piece starts here. o200k's pattern leaves no gap, but should one exist it is skipped, as `matchAll` skips it.
      nextPiece.lastIndex = start + 1;
      const next = nextPiece.exec(text);
      if (next === null) break;
      start = next.index;
    }
    return total;
  }

  private countPiece(piece: string): number {
    // A single ASCII character is always a token of its own.
    if (piece.length === 1 && piece.charCodeAt(0) < 0x80) return 1;
    const cached = this.cache.get(piece);
    if (cached !== undefined) return cached;
    const count = this.countUncached(piece);
    if (piece.length > longestCachedPiece) return count;
    if (this.cache.size >= cachedPieces) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(copyOf(piece), count);
    return count;
  }

  private countUncached(piece: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair, 2 units, takes 4). A piece
    // too long for the buffer kept between calls gets one of its own, so one long piece does not
    // leave a buffer of its size behind.
    const bytes = piece.length * 3 <= this.pieceBytes.length ? this.pieceBytes : new Uint8Array(piece.length * 3);
    const length = this.encoder.encodeInto(piece, bytes).written;
    // A piece holding a lone surrogate (written as U+FFFD) is never a token whole for gpt-tokenizer,
    // which looks pieces up as strings; it is merged from its bytes.
    if (!loneSurrogate.test(piece) && this.table.rankOf(bytes, 0, length) !== -1) return 1;
    return countMergedParts(this.table, bytes, length);
  }
}

/**
 * A string of its own with the piece's characters. A piece is a slice of the counted text, and V8
 * makes a slice of 13 characters or more a view into its parent: remembered as it is, it would keep
 * the whole text (a client's request) alive until it left the cache. Joining it to a character
 * makes a string V8 flattens into a new copy before slicing.
 */
function copyOf(piece: string): string {
  return ` ${piece}`.slice(1);
}
