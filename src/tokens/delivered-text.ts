import { loadEncoder } from './load-encoder.js';

/** Characters of a stream kept for counting; past them the count is scaled by size. */
const keptCharacters = 64 * 1024;

/**
 * What a stream handed its client, kept so that its output can be counted should the upstream
 * never report usage (the client left and the usage did not come in time, or the upstream broke
 * off). Adding a piece only keeps a reference to a string that exists anyway; the text is only
 * extracted and counted when it is needed. A long stream keeps its first 64 K characters and
 * scales their count by the size of the rest, so its memory stays bounded.
 */
export class DeliveredText {
  private readonly kept: string[] = [];
  private keptSize = 0;
  private totalSize = 0;

  /** `textOf` turns a kept piece into the answer text it carries (a raw event's deltas). */
  constructor(private readonly textOf: (piece: string) => string = (piece) => piece) {}

  add(piece: string): void {
    this.totalSize += piece.length;
    if (this.keptSize >= keptCharacters) return;
    this.kept.push(piece);
    this.keptSize += piece.length;
  }

  get empty(): boolean {
    return this.totalSize === 0;
  }

  /** Output tokens of what was delivered, with the o200k tokenizer (an estimate for other models). */
  async countTokens(): Promise<number> {
    if (this.keptSize === 0) return 0;
    const count = await loadEncoder();
    let text = '';
    for (const piece of this.kept) text += this.textOf(piece);
    const tokens = count(text);
    return this.totalSize === this.keptSize ? tokens : Math.ceil((tokens * this.totalSize) / this.keptSize);
  }
}
