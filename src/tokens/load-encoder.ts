import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Counts the tokens of a text. */
export type Encoder = (text: string) => number;

let encoder: Promise<Encoder> | undefined;

/**
 * The o200k counter, loaded on first use: a few megabytes the hot path never needs. Its code is
 * imported then (a chunk of its own in the bundle) and its rank table read from
 * `o200k-ranks.bin`.
 */
export function loadEncoder(): Promise<Encoder> {
  encoder ??= loadCounter();
  return encoder;
}

async function loadCounter(): Promise<Encoder> {
  const [{ O200kCounter }, { RankTable }, file] = await Promise.all([import('./o200k-counter.js'), import('./rank-table.js'), readFile(rankFile())]);
  const counter = new O200kCounter(new RankTable(file));
  return (text) => counter.count(text);
}

/**
 * Where the rank file is: beside this module in src/tokens/ (tests run the sources) and in
 * dist/tokens/ (the build copies it there), which the bundle, dist/bundle/gateway/, sees two
 * folders up.
 */
function rankFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'tokens' ? path.join(here, 'o200k-ranks.bin') : path.resolve(here, '../../tokens/o200k-ranks.bin');
}
