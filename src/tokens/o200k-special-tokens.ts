/**
 * o200k_base's special tokens. A text that holds one is refused, as gpt-tokenizer's `countTokens`
 * refuses it by default (a client's text must not pass for a control token), with the same
 * message, naming the first one found.
 */
export const o200kSpecialTokens = ['<|endoftext|>', '<|fim_prefix|>', '<|fim_middle|>', '<|fim_suffix|>', '<|im_start|>', '<|im_end|>', '<|im_sep|>', '<|endofprompt|>'] as const;

const specialTokenPattern = new RegExp(`(${o200kSpecialTokens.map((token) => token.replace(/[|]/g, '\\$&')).join('|')})`);

/** Throws when the text holds a special token. */
export function refuseSpecialTokens(text: string): void {
  // Every special token starts with "<|": most texts are cleared without running the pattern.
  if (!text.includes('<|')) return;
  const found = specialTokenPattern.exec(text);
  if (found !== null) throw new Error(`Disallowed special token found: ${found[0]}`);
}
