import type { ProviderBlob } from './content.js';
import type { FinishInfo } from './finish-reason.js';
import type { Usage } from './usage.js';

/**
 * Canonical stream events. A stream is:
 *   response-start, then for each output block: block-start, block-delta*, block-end,
 *   then exactly one response-end (or an error, after which nothing follows).
 * Blocks are numbered from 0 in the order they start; several may be open at once (parallel
 * tool calls streamed by index), and every block that starts also ends before response-end.
 */
export type IrStreamEvent =
  | ResponseStartEvent
  | BlockStartEvent
  | BlockDeltaEvent
  | BlockEndEvent
  | UsageEvent
  | ResponseEndEvent
  | StreamErrorEvent;

export interface ResponseStartEvent {
  readonly type: 'response-start';
  readonly id: string;
  readonly model: string;
  readonly created: number;
  /** Usage known at the start (Anthropic reports input tokens in message_start). */
  readonly usage?: Usage;
}

export type BlockKind =
  | { readonly kind: 'text'; readonly blob?: ProviderBlob }
  | { readonly kind: 'reasoning'; readonly redacted?: boolean; readonly blob?: ProviderBlob; readonly itemId?: string }
  | {
      readonly kind: 'tool-call';
      readonly id: string;
      readonly name: string;
      readonly toolKind?: 'function' | 'custom';
      readonly blob?: ProviderBlob;
      readonly itemId?: string;
    };

export interface BlockStartEvent {
  readonly type: 'block-start';
  readonly index: number;
  readonly block: BlockKind;
}

export type BlockDelta =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'reasoning'; readonly text: string }
  /** A fragment of the tool call's JSON arguments (or raw input for custom tools). */
  | { readonly kind: 'tool-arguments'; readonly text: string };

export interface BlockDeltaEvent {
  readonly type: 'block-delta';
  readonly index: number;
  readonly delta: BlockDelta;
}

export interface BlockEndEvent {
  readonly type: 'block-end';
  readonly index: number;
  /** Signature or encrypted content that arrived at the end of the block. */
  readonly blob?: ProviderBlob;
}

/** Usage known before the end (cumulative, replaces what was known). */
export interface UsageEvent {
  readonly type: 'usage';
  readonly usage: Usage;
}

export interface ResponseEndEvent {
  readonly type: 'response-end';
  readonly finish: FinishInfo;
  readonly usage: Usage;
}

export interface StreamErrorEvent {
  readonly type: 'error';
  readonly error: IrError;
}

/**
 * A failure inside a stream. A GatewayError in practice: the IR declares only the shape it needs
 * so that it depends on nothing else of the gateway, and encoders turn it back with
 * `toGatewayError`, which returns a GatewayError as it is.
 */
export interface IrError extends Error {
  readonly code: string;
  readonly status: number;
  /** The upstream's own error type, kept for clients of the same family. */
  readonly upstreamType: string | undefined;
}
