import type { ContentPart, IrRequest } from '../ir/index.js';
import { loadEncoder, type Encoder } from './load-encoder.js';

/** Tokens charged per image when the real figure is unknown (a mid-size image on current models). */
const tokensPerImage = 1_000;
/** Framing tokens per message (role markers and separators), as chat-style tokenizers add them. */
const tokensPerMessage = 4;

/**
 * Counts a request's input tokens locally, for upstreams that have no counting endpoint and for
 * the `message_start` of a translated Messages stream whose upstream states input only at the
 * end. The figure is an estimate (the real model's tokenizer may differ by a few percent) but it
 * counts everything the upstream will see: system and messages, tool calls and results, tool
 * schemas.
 */
export async function countInputTokens(request: IrRequest): Promise<number> {
  const count = await loadEncoder();
  let total = 0;
  for (const message of request.messages) {
    total += tokensPerMessage;
    for (const part of message.content) total += countPart(part, count);
  }
  for (const tool of request.tools ?? []) {
    total += count(JSON.stringify(tool));
  }
  return total;
}

function countPart(part: ContentPart, count: Encoder): number {
  switch (part.type) {
    case 'text':
      return count(part.text);
    case 'reasoning':
      return count(part.text);
    case 'image':
      return tokensPerImage;
    case 'file':
      return part.source.kind === 'text' ? count(part.source.text) : tokensPerImage;
    case 'tool-call':
      return count(part.name) + count(part.arguments);
    case 'tool-result':
      return typeof part.content === 'string'
        ? count(part.content)
        : part.content.reduce((sum, inner) => sum + countPart(inner, count), 0);
  }
}
