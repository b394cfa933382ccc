import type { FormatName } from '../../ir/format-name.js';
import { ownOutputCapFields } from '../../wire/output-cap-fields.js';

/** The output a text call may ask of its upstream: its cap (undefined when it sets none) on each of its choices. */
export interface OutputBound {
  readonly capTokens: number | undefined;
  readonly choices: number;
}

/**
 * The output bound of a body in `format`, read from the body as sent: on passthrough those bytes
 * go upstream unchanged, so this is the cap the upstream obeys; a translated call sends the
 * decoded cap, never above it. Chat's two caps may both be sent and servers differ in which wins,
 * so the larger counts; another format's cap was refused when the body was decoded. Chat's `n`
 * asks for that many choices, each up to the cap.
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
