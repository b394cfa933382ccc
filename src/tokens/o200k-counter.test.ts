import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadEncoder } from './load-encoder.js';
import { o200kSplitPattern } from './o200k-split-pattern.js';

/** Texts of every kind a model reads or writes, each counted by both and compared. */
const texts: Record<string, string> = {
  empty: '',
  'ASCII prose': 'The quick brown fox jumps over the lazy dog. It wasn\'t the dog\'s fault, they\'d say; we\'ll see, you\'re RIGHT, I\'M sure.',
  code: 'export async function main(argv: string[]): Promise<number> {\n  for (let i = 0; i < argv.length; i++) {\n    if (argv[i] === "--help") return usage();\n  }\n  return 0;\n}\n',
  JSON: JSON.stringify({ id: 'chatcmpl-9x', choices: [{ index: 0, delta: { content: 'Hi' }, logprobs: null }], usage: { prompt_tokens: 12, completion_tokens: 3 } }, null, 2),
  'whitespace runs': 'a  b   c    d\t\t\te\n\n\nf \n \n g\r\n\r\nh' + ' '.repeat(70) + 'i' + '\n'.repeat(33) + '\t '.repeat(20) + 'end   ',
  'long numbers': '3.14159265358979323846264338327950288419716939937510 and 1234567890123456789012345678901234567890, -0.000001e-23, 0x1F2E3D4C',
  emoji: '👋🏽 hello 👨‍👩‍👧‍👦 family 🇫🇷🇯🇵 flags 🧑🏿‍🚀 ✨✨✨ ❤️‍🔥 🫠',
  CJK: '自然言語処理は人工知能の一分野です。我们今天去公园散步吧！한국어 문장도 섞어 봅니다.',
  Arabic: 'اللغة العربية جميلة جداً، وهي لغة القرآن الكريم. مرحباً بالعالم!',
  'combining marks': 'e\u0301cole\u0300 Z\u0351\u036b\u0343a\u0364\u0310\u0303l\u0350g\u0312o\u0308 ñ vs n\u0303 Å vs A\u030a ग्रह क्षत्रिय',
  'lone and reversed surrogates': 'ab\uD800cd \uDC00 x\uD83D y \uDE00\uD83D z\uD83D\uDE00\uD800',
  'byte order marks': '\uFEFF名单 \uFEFF名 \uFEFFង \uFEFF// a comment\n\uFEFF#\n\uFEFF\uFEFF and \uFEFF\n\n and x\uFEFFy',
  'mixed scripts': 'Привет мир! Γειά σου Κόσμε! שלום עולם! नमस्ते दुनिया! สวัสดีชาวโลก',
  'near-special strings': '<|endoftext| <|notspecial|> <| |> endoftext|> <|im_start',
  'upper and title case': 'HTTPServer XMLHttpRequest iPhone McDonald\'S DON\'T ǅungla',
  markdown: '# Title\n\n- item **bold** _it_\n\n```python\nprint("x")\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  'URLs and paths': 'https://example.com/a/b?c=d&e=f#g /usr/local/bin/node C:\\Windows\\System32 ../../etc/passwd',
  'base64-like': 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
};

/** A 100 KB text of all the above, repeated. */
const large = Object.values(texts).join('\n').repeat(Math.ceil(100_000 / Object.values(texts).join('\n').length)).slice(0, 100_000);

/** A seeded generator, so a failure is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const alphabet = [...'abcXYZ019 \t\n\r\'"<|>.,;:/\\-_=+*#@!?()[]{}éÅñßİıǅ中文日本語한국어عربي😀👍🏽‍🇺🇸\u0301\u0308\uFEFF\u00A0\u2028\u3000', '\uD800', '\uDC00'];

describe('the compact o200k counter', () => {
  it("keeps o200k's split pattern as gpt-tokenizer writes it", () => {
    expect(o200kSplitPattern.source).toBe(O200K_TOKEN_SPLIT_REGEX.source);
    expect(o200kSplitPattern.flags).toBe(O200K_TOKEN_SPLIT_REGEX.flags);
  });

  it.each(Object.entries(texts))('counts %s as gpt-tokenizer does', async (_name, text) => {
    const count = await loadEncoder();
    expect(count(text)).toBe(countTokens(text));
  });

  it('counts a 100 KB text as gpt-tokenizer does', async () => {
    const count = await loadEncoder();
    expect(large.length).toBe(100_000);
    expect(count(large)).toBe(countTokens(large));
  });

  it('counts thousands of random mixes of scripts, marks, emoji and stray surrogates as gpt-tokenizer does', async () => {
    const count = await loadEncoder();
    const random = seeded(200_000);
    const differing: string[] = [];
    for (let round = 0; round < 3_000; round += 1) {
      let text = '';
      const length = 1 + Math.floor(random() * 40);
      for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(random() * alphabet.length)];
      if (count(text) !== countTokens(text)) differing.push(JSON.stringify(text));
    }
    expect(differing).toEqual([]);
  });

  it.each([
    ['a run of one letter', 'a'.repeat(3_000)],
    ['a word with no break', Array.from({ length: 400 }, (_, index) => 'supercalifragilistic'[index % 20]).join('').repeat(5)],
    ['a run of CJK', '自然言語処理は人工知能の一分野'.repeat(80)],
    ['a run of punctuation', '=-=+*#'.repeat(500)],
    ['a run of emoji', '👋🏽🧑🏿‍🚀✨'.repeat(150)],
    ['a long run of spaces', ' '.repeat(4_000) + 'x'],
  ])('counts %s, one piece of thousands of bytes, as gpt-tokenizer does', async (_name, text) => {
    const count = await loadEncoder();
    expect(count(text)).toBe(countTokens(text));
  });

  it('counts a word of 100,000 letters in n log n steps, not n²', async () => {
    const count = await loadEncoder();
    const random = seeded(7);
    let word = '';
    while (word.length < 100_000) word += 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)];
    const started = performance.now();
    const tokens = count(word);
    // Merged by scanning for the lowest pair at each step, this takes seconds (a megabyte, hours).
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(tokens).toBeGreaterThan(10_000);
    expect(tokens).toBeLessThan(100_000);
  });

  it('lets go of the texts it counted: the pieces it remembers are copies, not views holding the whole text', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const count = await loadEncoder();
    const common = 'hello world '.repeat(100_000);
    count(common);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    // Thirty texts of 1.2 MB, each with one piece new to the counter (a word of letters only, so no digit splits it).
    for (let index = 0; index < 30; index += 1) count(`${common} uniquelongword${String.fromCharCode(97 + (index % 26), 97 + Math.floor(index / 26))}`);
    collectGarbage();
    // Remembered as slices, the thirty pieces would hold the thirty texts: 34 MB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024);
  });

  it('keeps no buffer the size of the longest piece it has counted', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const count = await loadEncoder();
    count('warm up');
    collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    count('x'.repeat(1_000_000));
    // Its bytes (3 MB of room for a million characters) are let go once it is counted. Node 24 frees
    // an ArrayBuffer's memory a little after the collection that finds it dead, so a few collections
    // with a turn of the event loop between them are given; a kept buffer would never go.
    let retained = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 10 && retained >= 1024 * 1024; attempt += 1) {
      collectGarbage();
      await new Promise((resolve) => setImmediate(resolve));
      retained = process.memoryUsage().arrayBuffers - before;
    }
    expect(retained).toBeLessThan(1024 * 1024);
  });

  it('counts the same text the same the second time, from its remembered pieces', async () => {
    const count = await loadEncoder();
    const text = texts['mixed scripts']! + texts.CJK!;
    expect(count(text)).toBe(count(text));
    expect(count(text)).toBe(countTokens(text));
  });

  it.each(['<|endoftext|>', 'before <|fim_prefix|> after', 'x<|im_start|>user<|im_sep|>hi<|im_end|>', '<|endofprompt|>', '<|fim_middle|><|fim_suffix|>'])(
    'refuses %s with the error gpt-tokenizer gives',
    async (text) => {
      const count = await loadEncoder();
      expect(() => countTokens(text)).toThrow();
      let expected = '';
      try {
        countTokens(text);
      } catch (error) {
        expected = (error as Error).message;
      }
      expect(() => count(text)).toThrow(expected);
    },
  );
});
