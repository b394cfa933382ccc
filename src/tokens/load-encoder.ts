/** Counts the tokens of a text. */
export type Encoder = (text: string) => number;

let encoder: Promise<Encoder> | undefined;

/** The o200k tokenizer, loaded on first use: it is several megabytes the hot path never needs. */
export function loadEncoder(): Promise<Encoder> {
  encoder ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => (text: string) => module.countTokens(text));
  return encoder;
}
