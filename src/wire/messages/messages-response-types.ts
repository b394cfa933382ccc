/**
 * The Messages shapes the gateway writes to Messages clients: the `message` object of a
 * non-streamed answer and the payloads of the named stream events.
 */
import type { MessagesRedactedThinkingBlock, MessagesStopReason, MessagesThinkingBlock, MessagesUsage } from './messages-types.js';

export interface MessagesResponseTextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly citations?: readonly unknown[];
}

export interface MessagesResponseToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** Output blocks; server-tool blocks kept from an Anthropic upstream are passed on as they came. */
export type MessagesResponseBlock =
  | MessagesResponseTextBlock
  | MessagesThinkingBlock
  | MessagesRedactedThinkingBlock
  | MessagesResponseToolUseBlock
  | Readonly<Record<string, unknown>>;

/** `usage` as written: the standard figures plus whatever an Anthropic upstream added (service_tier, …). */
export type MessagesResponseUsage = MessagesUsage & Readonly<Record<string, unknown>>;

export interface MessagesResponseBody {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'assistant';
  readonly model: string;
  readonly content: readonly MessagesResponseBlock[];
  readonly stop_reason: MessagesStopReason | null;
  readonly stop_sequence: string | null;
  readonly stop_details?: unknown;
  readonly container?: unknown;
  readonly context_management?: unknown;
  readonly usage: MessagesResponseUsage;
}

/** `content_block_start.content_block`: every block starts empty except redacted thinking. */
export type MessagesStreamBlockStart =
  | { readonly type: 'text'; readonly text: '' }
  | { readonly type: 'thinking'; readonly thinking: ''; readonly signature: '' }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, never>> };

export type MessagesStreamDelta =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'thinking_delta'; readonly thinking: string }
  | { readonly type: 'signature_delta'; readonly signature: string }
  | { readonly type: 'input_json_delta'; readonly partial_json: string };
