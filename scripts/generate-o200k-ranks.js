#!/usr/bin/env node
/**
 * Writes src/tokens/o200k-ranks.bin, the o200k vocabulary the gateway counts tokens with, from
 * gpt-tokenizer's ranks (node_modules/gpt-tokenizer/esm/bpeRanks/o200k_base.js, itself generated
 * from OpenAI's o200k_base.tiktoken). The vocabulary never changes, so the file is committed and
 * this script is run only to check it (test/scripts/o200k-ranks.test.ts) or after a new release of
 * gpt-tokenizer: the gateway then needs no build step and no gpt-tokenizer to count.
 *
 * Layout, little-endian: the 4 bytes "o2kr"; a u32 version (1); a u32 count of ranks; a u32 total
 * of token bytes; one u8 length per rank (0 for a rank that is never matched); then every token's
 * bytes, rank after rank. The loader builds its hash table from these (src/tokens/rank-table.ts).
 *
 * A rank is written with length 0 when gpt-tokenizer can never find it: the few tokens it keeps as
 * byte arrays although their bytes are valid UTF-8 (those that start with a byte order mark, which
 * its TextDecoder drops). Leaving them out keeps the counts equal to gpt-tokenizer's.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const rankFilePath = path.join(root, 'src', 'tokens', 'o200k-ranks.bin');

/** The file's bytes, the same on every run for the same ranks. */
export async function generateO200kRanks() {
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  const encoder = new TextEncoder();
  const strictDecoder = new TextDecoder('utf-8', { fatal: true });
  const tokens = [];
  for (let rank = 0; rank < ranks.length; rank += 1) {
    const value = ranks[rank];
    if (value === undefined) {
      tokens.push(new Uint8Array(0));
      continue;
    }
    if (typeof value === 'string') {
      tokens.push(encoder.encode(value));
      continue;
    }
    const bytes = Uint8Array.from(value);
    let decodable = true;
    try {
      strictDecoder.decode(bytes);
    } catch {
      decodable = false;
    }
    tokens.push(decodable ? new Uint8Array(0) : bytes);
  }
  const total = tokens.reduce((sum, token) => sum + token.length, 0);
  const file = Buffer.alloc(16 + tokens.length + total);
  file.write('o2kr', 0, 'latin1');
  file.writeUInt32LE(1, 4);
  file.writeUInt32LE(tokens.length, 8);
  file.writeUInt32LE(total, 12);
  let at = 16;
  for (const token of tokens) {
    if (token.length > 255) throw new Error(`a token of ${token.length} bytes does not fit the one-byte length`);
    file[at] = token.length;
    at += 1;
  }
  for (const token of tokens) {
    file.set(token, at);
    at += token.length;
  }
  return file;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(rankFilePath, await generateO200kRanks());
}
