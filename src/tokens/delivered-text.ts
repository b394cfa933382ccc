import { loadEncoder } from './load-encoder.js';

/** Characters of text-bearing events kept for counting; past them the count is scaled by size. */
const keptCharacters = 16 * 1024;

/** How the pieces of one stream are read: which can carry answer text, and the text a piece carries. */
export interface PieceReading {
  /** A cheap test, run on every piece as it is relayed: false for events that never carry answer text. */
  carriesText(piece: string): boolean;
  /** The answer text of a piece (a raw event's deltas), read only when the output is counted. */
  textOf(piece: string): string;
}

/** Pieces that are the answer text themselves (deltas already taken out of their events). */
const plainText: PieceReading = { carriesText: () => true, textOf: (piece) => piece };

/**
 * What a stream handed its client, kept so that its output can be counted should the upstream
 * never report usage (the client left and the usage did not come in time, or the upstream broke
 * off). Only pieces that can carry answer text are looked at: a stream's other events (a
 * Responses stream's opening events repeat the whole instructions and tools) say nothing of its
 * output and would skew a count scaled by size. The first 16 K characters of those pieces are
 * kept, alive until the call is metered, and a stream longer than that has their count scaled by
 * the size of all its text-bearing pieces, so memory stays bounded. The text is only extracted
 * and counted when it is needed, after the stream has ended (`countTokens`).
 */
export class DeliveredText {
  private readonly kept: string[] = [];
  /** The text of the piece that did not fit whole, cut in proportion to the room that was left. */
  private cutText = '';
  private keptSize = 0;
  private totalSize = 0;

  constructor(private readonly reading: PieceReading = plainText) {}

  add(piece: string): void {
    if (!this.reading.carriesText(piece)) return;
    this.totalSize += piece.length;
    const room = keptCharacters - this.keptSize;
    if (room <= 0) return;
    if (piece.length <= room) {
      this.kept.push(piece);
      this.keptSize += piece.length;
      return;
    }
    // Once a stream: its text is taken out now, so one large event neither overflows the bound nor goes uncounted.
    const text = this.reading.textOf(piece);
    this.cutText = text.slice(0, Math.ceil((text.length * room) / piece.length));
    this.keptSize = keptCharacters;
  }

  get empty(): boolean {
    return this.totalSize === 0;
  }

  /** Output tokens of what was delivered, with the o200k tokenizer (an estimate for other models). */
  async countTokens(): Promise<number> {
    if (this.keptSize === 0) return 0;
    const count = await loadEncoder();
    let text = '';
    for (const piece of this.kept) text += this.reading.textOf(piece);
    const tokens = count(text + this.cutText);
    return this.totalSize === this.keptSize ? tokens : Math.ceil((tokens * this.totalSize) / this.keptSize);
  }
}
