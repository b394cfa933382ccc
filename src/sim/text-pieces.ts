import { createHash } from 'node:crypto';

/**
 * Splits text into stream pieces word by word, each piece carrying the whitespace before it, so
 * concatenating the pieces gives the text back exactly.
 */
export function splitIntoPieces(text: string): string[] {
  const pieces = text.match(/\s*\S+/g) ?? [];
  if (pieces.length === 0) return [text];
  const consumed = pieces.join('').length;
  // Trailing whitespace has no word to ride on; keep it on the last piece so nothing is lost.
  if (consumed < text.length) pieces[pieces.length - 1] += text.slice(consumed);
  return pieces;
}

const vocabulary = [
  'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett',
  'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango',
  'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu',
];

/** N deterministic words (a stride through a fixed vocabulary), for long streams and load tests. */
export function deterministicWords(count: number): string {
  const words: string[] = [];
  for (let index = 0; index < count; index += 1) {
    words.push(vocabulary[(index * 7) % vocabulary.length] ?? 'sim');
  }
  return words.join(' ');
}

/** Cuts text to a number of characters without splitting a surrogate pair. */
export function truncateCharacters(text: string, limit: number): string {
  const characters = Array.from(text);
  return characters.length <= limit ? text : characters.slice(0, limit).join('');
}

export function simSignature(seed: string): string {
  return `sim-signature-${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;
}
