import type { FormatName } from '../ir/format-name.js';

/** The output a text call may ask of its upstream: its cap (undefined when it sets none) on each of its choices. */
export interface OutputBound {
  readonly capTokens: number | undefined;
  readonly choices: number;
}

/**
 * Each client format's own names for its output cap, as its API obeys them. Chat has two: OpenAI
 * takes either (`max_tokens` deprecated), and OpenAI-compatible servers differ in which wins when
 * both are sent, so the worst case takes the larger. A cap of another format is refused when the
 * body is decoded, never read here: the upstream would not obey it.
 */
export const ownOutputCapFields: Readonly<Record<FormatName, readonly string[]>> = {
  chat: ['max_completion_tokens', 'max_tokens'],
  responses: ['max_output_tokens'],
  messages: ['max_tokens'],
};

/**
 * The output bound of a body in `format`, read from the body as sent: on passthrough those bytes
 * go upstream unchanged, so this is the cap the upstream obeys; a translated call sends the
 * decoded cap, never above it. Chat's `n` asks for that many choices, each up to the cap.
 */
export function outputBound(format: FormatName, body: Readonly<Record<string, unknown>>): OutputBound {
  let capTokens: number | undefined;
  for (const field of ownOutputCapFields[format]) {
    const value = body[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0 && (capTokens === undefined || value > capTokens)) capTokens = value;
  }
  const n = format === 'chat' ? body['n'] : undefined;
  const choices = typeof n === 'number' && Number.isInteger(n) && n > 1 ? n : 1;
  return { capTokens, choices };
}
