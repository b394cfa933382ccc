/**
 * How o200k cuts a text into pieces before byte-pair merging (letters with their leading mark and
 * contraction, up to three digits, punctuation runs, whitespace), as gpt-tokenizer 3.4 writes
 * OpenAI's pattern for o200k_base (its encodingParams/constants.js). Kept as a fact here so the
 * gateway's counter never loads gpt-tokenizer; `o200k-counter.test.ts` holds it equal to theirs.
 */
const contractionSuffix = String.raw`'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])`;
const optionalContraction = `(?:${contractionSuffix})?`;

export const o200kSplitPattern = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${optionalContraction}` +
    String.raw`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${optionalContraction}` +
    String.raw`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
);
