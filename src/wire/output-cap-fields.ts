import type { FormatName } from '../ir/format-name.js';

/**
 * Each client format's own names for its output cap, as its API obeys them, the one to suggest
 * first. Chat has two: OpenAI takes either (`max_tokens` deprecated), and OpenAI-compatible
 * servers differ in which wins when both are sent. The one list both the decoders (which refuse
 * another format's names) and the budget's worst case (which reads the own ones) go by, so the
 * cap a budget reserves for is always a cap the decoder let through.
 */
export const ownOutputCapFields: Readonly<Record<FormatName, readonly string[]>> = {
  chat: ['max_completion_tokens', 'max_tokens'],
  responses: ['max_output_tokens'],
  messages: ['max_tokens'],
};

/** The cap names of the other formats that `format` does not share: a request of `format` must not carry them. */
export function foreignOutputCapFields(format: FormatName): readonly string[] {
  return foreignFieldsByFormat[format];
}

function foreignFieldsOf(format: FormatName): readonly string[] {
  const own = ownOutputCapFields[format];
  const others = Object.values(ownOutputCapFields).flat();
  return [...new Set(others)].filter((field) => !own.includes(field)).sort();
}

// Worked out once: the decoders ask on every request.
const foreignFieldsByFormat: Readonly<Record<FormatName, readonly string[]>> = {
  chat: foreignFieldsOf('chat'),
  responses: foreignFieldsOf('responses'),
  messages: foreignFieldsOf('messages'),
};
