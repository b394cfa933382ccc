/**
 * Anthropic Messages wire shapes (`POST /v1/messages`), limited to the fields the gateway writes
 * or reads. Bodies received from the wire are still `unknown` and narrowed field by field; these
 * types describe what is written and what a narrowed value means.
 */

export interface MessagesCacheControl {
  readonly type: 'ephemeral';
  readonly ttl?: string;
}

export interface MessagesTextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: MessagesCacheControl;
  readonly citations?: readonly unknown[];
}

export type MessagesImageSource =
  | { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string }
  | { readonly type: 'file'; readonly file_id: string };

export interface MessagesImageBlock {
  readonly type: 'image';
  readonly source: MessagesImageSource;
  readonly cache_control?: MessagesCacheControl;
}

export type MessagesDocumentSource =
  | { readonly type: 'base64'; readonly media_type: 'application/pdf'; readonly data: string }
  | { readonly type: 'text'; readonly media_type: 'text/plain'; readonly data: string }
  | { readonly type: 'url'; readonly url: string }
  | { readonly type: 'file'; readonly file_id: string };

export interface MessagesDocumentBlock {
  readonly type: 'document';
  readonly source: MessagesDocumentSource;
  readonly title?: string;
  readonly cache_control?: MessagesCacheControl;
}

export interface MessagesToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly cache_control?: MessagesCacheControl;
}

export interface MessagesToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string | readonly (MessagesTextBlock | MessagesImageBlock | MessagesDocumentBlock)[];
  readonly is_error?: boolean;
  readonly cache_control?: MessagesCacheControl;
}

export interface MessagesThinkingBlock {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature: string;
}

export interface MessagesRedactedThinkingBlock {
  readonly type: 'redacted_thinking';
  readonly data: string;
}

/** Content blocks the gateway writes into request turns. */
export type MessagesRequestBlock =
  | MessagesTextBlock
  | MessagesImageBlock
  | MessagesDocumentBlock
  | MessagesToolUseBlock
  | MessagesToolResultBlock
  | MessagesThinkingBlock
  | MessagesRedactedThinkingBlock;

export interface MessagesTurn {
  readonly role: 'user' | 'assistant';
  readonly content: readonly MessagesRequestBlock[];
}

export interface MessagesFunctionTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
  readonly cache_control?: MessagesCacheControl;
  readonly [extra: string]: unknown;
}

export type MessagesToolChoice =
  | { readonly type: 'auto'; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'any'; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'tool'; readonly name: string; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'none' };

export type MessagesThinkingConfig =
  | { readonly type: 'enabled'; readonly budget_tokens: number }
  | { readonly type: 'adaptive' }
  | { readonly type: 'disabled' };

export type MessagesEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface MessagesOutputConfig {
  readonly effort?: MessagesEffort;
  readonly format?: { readonly type: 'json_schema'; readonly schema: Readonly<Record<string, unknown>> };
}

export interface MessagesRequestBody {
  readonly model: string;
  readonly max_tokens: number;
  readonly messages: readonly MessagesTurn[];
  readonly system?: readonly MessagesTextBlock[];
  readonly tools?: readonly Readonly<Record<string, unknown>>[];
  readonly tool_choice?: MessagesToolChoice;
  readonly thinking?: MessagesThinkingConfig;
  readonly output_config?: MessagesOutputConfig;
  readonly temperature?: number;
  readonly top_p?: number;
  readonly top_k?: number;
  readonly stop_sequences?: readonly string[];
  readonly metadata?: { readonly user_id: string };
  readonly stream?: boolean;
  /** Fields a Messages client sent that have no neutral meaning (context_management, service_tier, …). */
  readonly [extra: string]: unknown;
}

export type MessagesStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/**
 * Usage as Messages reports it. `input_tokens` excludes cache reads and writes; `output_tokens`
 * includes thinking, which newer models break out in `output_tokens_details.thinking_tokens`.
 */
export interface MessagesUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
  readonly output_tokens_details?: { readonly thinking_tokens: number } | null;
}

export type MessagesErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'timeout_error'
  | 'overloaded_error';

export interface MessagesErrorBody {
  readonly type: 'error';
  readonly error: { readonly type: string; readonly message: string };
  readonly request_id?: string;
}

/** Named SSE events of a Messages stream; the `event:` name equals the data's `type`. */
export type MessagesStreamEventName =
  | 'message_start'
  | 'content_block_start'
  | 'content_block_delta'
  | 'content_block_stop'
  | 'message_delta'
  | 'message_stop'
  | 'ping'
  | 'error';

/**
 * What `IrResponse.extensions.anthropic` holds after decoding a Message: blocks with no neutral
 * meaning (server_tool_use, web_search_tool_result, …) are kept whole with `after` = the number of
 * IR content parts that preceded them, so a Messages encoder can put them back in place.
 */
export type MessagesResponseExtensions = {
  readonly content?: readonly { readonly after: number; readonly block: Readonly<Record<string, unknown>> }[];
  /** Citations of text parts, keyed by the IR content index of the text part. */
  readonly citations?: readonly { readonly part: number; readonly citations: readonly unknown[] }[];
  readonly stop_details?: unknown;
  readonly context_management?: unknown;
  readonly container?: unknown;
  /** The upstream's usage object as sent (service_tier, server_tool_use, cache_creation, …). */
  readonly usage?: unknown;
};
