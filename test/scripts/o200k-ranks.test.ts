import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateO200kRanks, rankFilePath } from '../../scripts/generate-o200k-ranks.js';

describe('the committed o200k rank file', () => {
  it("is byte for byte what the generator makes from gpt-tokenizer's ranks", async () => {
    const fresh = await generateO200kRanks();
    const committed = readFileSync(rankFilePath);
    expect(committed.length).toBe(fresh.length);
    expect(committed.equals(fresh)).toBe(true);
  });
});
