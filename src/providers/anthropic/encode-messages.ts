import { GatewayError } from '../../errors/gateway-error.js';
import type { ContentPart, IrMessage } from '../../ir/index.js';
import type { MessagesRequestBlock, MessagesTextBlock, MessagesTurn } from '../../wire/messages/index.js';
import { encodeFile, encodeImage, encodeReasoning, encodeText, encodeToolCall, encodeToolResult } from './encode-content.js';

export interface EncodedConversation {
  readonly system: readonly MessagesTextBlock[];
  readonly messages: readonly MessagesTurn[];
}

function encodePart(part: ContentPart, param: string): MessagesRequestBlock | undefined {
  switch (part.type) {
    case 'text':
      return encodeText(part);
    case 'image':
      return encodeImage(part);
    case 'file':
      return encodeFile(part, param);
    case 'reasoning':
      return encodeReasoning(part);
    case 'tool-call':
      return encodeToolCall(part, param);
    case 'tool-result':
      return encodeToolResult(part, param);
  }
}

/** The top-level `system` parameter takes text blocks only. */
function systemBlocks(message: IrMessage, param: string): MessagesTextBlock[] {
  const blocks: MessagesTextBlock[] = [];
  for (const part of message.content) {
    if (part.type !== 'text') {
      throw new GatewayError('unsupported_combination', 'System messages may contain only text for this model.', { param });
    }
    const block = encodeText(part);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

/** Messages requires tool results at the start of the user turn that answers the tool calls. */
function toolResultsFirst(blocks: readonly MessagesRequestBlock[]): MessagesRequestBlock[] {
  return [...blocks.filter((block) => block.type === 'tool_result'), ...blocks.filter((block) => block.type !== 'tool_result')];
}

/**
 * IR turns → Messages `system` + alternating user/assistant turns.
 *
 * - Leading system/developer turns become the top-level `system` (cache_control kept).
 * - A system turn later in the conversation is folded into the user side as text: Messages has no
 *   mid-conversation system role, and hoisting it to the top would move an instruction given at
 *   that point to the start (changing what it applies to and invalidating the cached prefix).
 * - `tool` turns become user turns of tool_result blocks.
 * - Adjacent turns of the same role are merged, since Messages expects user and assistant to
 *   alternate; turns left with no blocks (e.g. only foreign reasoning) are dropped because Messages
 *   rejects empty turns and they carry nothing.
 */
export function encodeConversation(messages: readonly IrMessage[]): EncodedConversation {
  const system: MessagesTextBlock[] = [];
  let index = 0;
  for (; index < messages.length; index += 1) {
    const message = messages[index];
    if (message === undefined || message.role !== 'system') break;
    system.push(...systemBlocks(message, `messages[${index}]`));
  }

  const turns: { role: 'user' | 'assistant'; content: MessagesRequestBlock[] }[] = [];
  for (; index < messages.length; index += 1) {
    const message = messages[index];
    if (message === undefined) continue;
    const param = `messages[${index}]`;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks: MessagesRequestBlock[] = [];
    for (const part of message.content) {
      const block = encodePart(part, param);
      if (block !== undefined) blocks.push(block);
    }
    if (blocks.length === 0) continue;
    const previous = turns.at(-1);
    if (previous !== undefined && previous.role === role) previous.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }

  return {
    system,
    messages: turns.map((turn) => (turn.role === 'user' ? { role: 'user', content: toolResultsFirst(turn.content) } : turn)),
  };
}
