import type { ContentPart } from './content.js';

/**
 * One conversation turn. `system` turns may appear anywhere (chat allows it, Claude Code sends
 * them mid-conversation); providers that only accept a leading system prompt hoist or fold them.
 * Tool results travel in `tool` turns, one part per result.
 */
export interface IrMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: readonly ContentPart[];
  /** Chat's optional participant name. */
  readonly name?: string;
  /** Chat's `developer` role is kept apart from `system` so a chat upstream sees what was sent. */
  readonly developer?: boolean;
}
