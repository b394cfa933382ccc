import { GatewayError } from '../../../errors/gateway-error.js';
import type { ContentPart, IrMessage } from '../../../ir/index.js';
import { encodeReasoning, encodeText, encodeToolCall, encodeToolResult, withCachePoint } from './encode-content.js';
import { encodeFile, encodeImage } from './encode-media.js';
import type { ConverseContentBlock, ConverseMessage, ConverseSystemBlock } from './wire/converse-request.js';

export interface EncodedConversation {
  readonly system: readonly ConverseSystemBlock[];
  readonly messages: readonly ConverseMessage[];
  /** Names of the tools the history calls, which Converse wants declared (see encode-tools.ts). */
  readonly calledTools: ReadonlySet<string>;
}

/** Counts documents across the request, so each unnamed one gets a name of its own. */
interface DocumentCounter {
  next: number;
}

function encodePart(part: ContentPart, param: string, documents: DocumentCounter): ConverseContentBlock[] {
  switch (part.type) {
    case 'text':
      return encodeText(part);
    case 'image':
      return withCachePoint(encodeImage(part, param), part.cacheControl);
    case 'file':
      documents.next += 1;
      return withCachePoint(encodeFile(part, documents.next - 1, param), part.cacheControl);
    case 'reasoning': {
      const block = encodeReasoning(part);
      return block === undefined ? [] : [block];
    }
    case 'tool-call':
      return [encodeToolCall(part, param)];
    case 'tool-result':
      return encodeToolResult(part, param);
  }
}

/** Converse's `system` takes text (and cache points) only. */
function systemBlocks(message: IrMessage, param: string): ConverseSystemBlock[] {
  return message.content.flatMap((part): ConverseSystemBlock[] => {
    if (part.type !== 'text') throw new GatewayError('unsupported_combination', 'System messages may contain only text for this model.', { param });
    return part.text.trim() === '' ? [] : withCachePoint({ text: part.text }, part.cacheControl);
  });
}

function isToolResult(block: ConverseContentBlock): boolean {
  return 'toolResult' in block;
}

/**
 * Tool results go first in the user turn that answers the calls; a cache point stays behind the
 * block it ends, so it moves with it.
 */
function toolResultsFirst(blocks: readonly ConverseContentBlock[]): ConverseContentBlock[] {
  const results: ConverseContentBlock[] = [];
  const others: ConverseContentBlock[] = [];
  let lastWasResult = false;
  for (const block of blocks) {
    const target = isToolResult(block) || ('cachePoint' in block && lastWasResult) ? results : others;
    target.push(block);
    if (!('cachePoint' in block)) lastWasResult = isToolResult(block);
  }
  return [...results, ...others];
}

/**
 * IR turns → Converse `system` + alternating user/assistant messages.
 *
 * - Leading system/developer turns become `system`.
 * - A system turn later in the conversation is folded into the user side as text: Converse has no
 *   mid-conversation system role, and hoisting it would move an instruction to the start.
 * - `tool` turns become user turns of `toolResult` blocks, as Converse requires.
 * - Consecutive turns of the same role are merged (Converse refuses two in a row); turns left
 *   with no blocks (blank text, another provider's reasoning) are dropped.
 */
export function encodeConversation(messages: readonly IrMessage[]): EncodedConversation {
  const system: ConverseSystemBlock[] = [];
  let index = 0;
  for (; index < messages.length; index += 1) {
    const message = messages[index];
    if (message === undefined || message.role !== 'system') break;
    system.push(...systemBlocks(message, `messages[${index}]`));
  }

  const documents: DocumentCounter = { next: 0 };
  const calledTools = new Set<string>();
  const turns: { role: 'user' | 'assistant'; content: ConverseContentBlock[] }[] = [];
  for (; index < messages.length; index += 1) {
    const message = messages[index];
    if (message === undefined) continue;
    const param = `messages[${index}]`;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = message.content.flatMap((part) => encodePart(part, param, documents));
    for (const part of message.content) if (part.type === 'tool-call') calledTools.add(part.name);
    // A cache point alone marks nothing.
    if (blocks.every((block) => 'cachePoint' in block)) continue;
    const previous = turns.at(-1);
    if (previous !== undefined && previous.role === role) previous.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }

  return {
    system,
    messages: turns.map((turn) => (turn.role === 'user' ? { role: 'user', content: toolResultsFirst(turn.content) } : turn)),
    calledTools,
  };
}
