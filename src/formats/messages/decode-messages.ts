import type { ContentPart, IrMessage, TextPart } from '../../ir/index.js';
import { decodeBlock } from './decode-content.js';
import type { BlockInput, MessageInput } from './messages-request-schema.js';

/** The top-level `system` (string or text blocks, cache_control kept) as a leading IR system turn. */
export function decodeSystem(system: string | readonly BlockInput[] | undefined): IrMessage[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ role: 'system', content: [{ type: 'text', text: system }] }];
  const content = system.map((block, index) => decodeBlock(block, 'system', ['system', index]));
  const parts = content.filter((part): part is TextPart => part !== undefined && part.type === 'text');
  return parts.length === 0 ? [] : [{ role: 'system', content: parts }];
}

/**
 * Messages turns as IR turns. `role: "system"` entries (Claude Code sends them mid-conversation)
 * stay system turns in place. Tool results travel in IR `tool` turns, so a user turn is split
 * into runs of tool results and runs of other blocks, keeping their order (usually one tool turn
 * followed by one user turn).
 */
export function decodeMessages(messages: readonly MessageInput[]): IrMessage[] {
  const decoded: IrMessage[] = [];
  messages.forEach((message, messageIndex) => {
    const parts = decodeTurnContent(message, messageIndex);
    if (message.role !== 'user') {
      decoded.push({ role: message.role, content: parts });
      return;
    }
    if (parts.length === 0) {
      decoded.push({ role: 'user', content: [] });
      return;
    }
    let run: { role: 'user' | 'tool'; content: ContentPart[] } | undefined;
    for (const part of parts) {
      const role = part.type === 'tool-result' ? 'tool' : 'user';
      if (run === undefined || run.role !== role) {
        run = { role, content: [] };
        decoded.push(run);
      }
      run.content.push(part);
    }
  });
  return decoded;
}

function decodeTurnContent(message: MessageInput, messageIndex: number): ContentPart[] {
  if (typeof message.content === 'string') {
    return message.content === '' ? [] : [{ type: 'text', text: message.content }];
  }
  const parts: ContentPart[] = [];
  message.content.forEach((block, blockIndex) => {
    const part = decodeBlock(block, message.role, ['messages', messageIndex, 'content', blockIndex]);
    if (part !== undefined) parts.push(part);
  });
  return parts;
}
