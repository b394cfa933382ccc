import { toGatewayError } from '../../errors/gateway-error.js';
import { clientBlobValue } from '../../ir/client-blob.js';
import type { BlockDelta, BlockKind, FinishInfo, IrStreamEvent, ProviderBlob, Usage } from '../../ir/index.js';
import { isEmptyUsage, totalInputTokens, zeroUsage } from '../../ir/index.js';
import { messagesSseEvent, messagesUsageFromUsage } from '../../wire/messages/index.js';
import type { MessagesStreamBlockStart, MessagesStreamDelta } from '../../wire/messages/index.js';
import type { EncodeContext, StreamEncoder } from '../client-format.js';
import { encodeMessagesStreamError } from './encode-error.js';
import { callBlobCarrier, messagesStopReason } from './encode-response.js';
import { messageId } from './message-id.js';

/** One IR block on its way to the client. */
interface BlockState {
  readonly kind: BlockKind;
  /** Deltas that arrived while another block was on the wire, replayed when this one gets its turn. */
  readonly pending: BlockDelta[];
  ended: boolean;
  endBlob: ProviderBlob | undefined;
  /** Raw input of a free-form (custom) tool call, sent as one `{input}` object at the end. */
  customInput: string;
}

type Phase = 'awaiting-start' | 'streaming' | 'finished';

/**
 * IR stream events → Messages named SSE events.
 *
 * States: awaiting-start → streaming (after message_start) → finished (after message_stop or an
 * error; later events are ignored).
 *
 * Messages numbers content blocks in order and never interleaves them: a block starts, gets its
 * deltas and stops before the next one starts (the SDK appends each started block to its content
 * and addresses deltas by position). The IR allows several blocks open at once — a chat upstream
 * streams parallel tool calls by index, fragments interleaved. So exactly one IR block is "on the
 * wire" at a time: blocks that start meanwhile wait in a queue with their deltas buffered (and
 * their end noted); when the block on the wire ends, the queue is drained in order of start, each
 * waiting block opened, its buffer flushed and, if it already ended, closed. Every started block is
 * closed before message_delta: Claude Code shows an empty answer when a content_block_stop is missing.
 */
export function createMessagesStreamEncoder(context: EncodeContext): StreamEncoder {
  let phase: Phase = 'awaiting-start';
  const blocks = new Map<number, BlockState>();
  const waiting: BlockState[] = [];
  let onWire: { readonly state: BlockState; readonly wireIndex: number } | undefined;
  let nextWireIndex = 0;
  let usage: Usage = zeroUsage;
  let sawToolCall = false;

  function start(id: string, startUsage: Usage | undefined): string {
    if (phase !== 'awaiting-start') return '';
    phase = 'streaming';
    if (startUsage !== undefined) usage = startUsage;
    const known = messagesUsageFromUsage(usage);
    // Clients such as LangChain read input tokens only here, as Anthropic always sends them here;
    // an upstream that reports them only at the end gets the gateway's estimate in their place.
    // The estimate never reaches `usage`: message_delta and metering carry the upstream's figure.
    const estimate = context.inputTokensEstimate;
    const input = totalInputTokens(usage) === 0 && estimate !== undefined ? { input_tokens: estimate } : {};
    return messagesSseEvent('message_start', {
      type: 'message_start',
      message: {
        id: messageId(id, context.requestId),
        type: 'message',
        role: 'assistant',
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Anthropic reports a token or so of output at the start; the real total follows in message_delta.
        usage: { ...known, ...input, output_tokens: known.output_tokens > 0 ? known.output_tokens : 1 },
      },
    });
  }

  function blockStart(kind: BlockKind, endBlob: ProviderBlob | undefined): MessagesStreamBlockStart {
    switch (kind.kind) {
      case 'text':
        return { type: 'text', text: '' };
      case 'reasoning':
        // Redacted thinking arrives whole: its payload is the blob.
        if (kind.redacted === true && (kind.blob ?? endBlob)?.provider === 'anthropic') {
          return { type: 'redacted_thinking', data: kind.blob?.value ?? endBlob?.value ?? '' };
        }
        return { type: 'thinking', thinking: '', signature: '' };
      case 'tool-call':
        return { type: 'tool_use', id: kind.id, name: kind.name, input: {} };
    }
  }

  function deltaEvent(wireIndex: number, delta: MessagesStreamDelta): string {
    return messagesSseEvent('content_block_delta', { type: 'content_block_delta', index: wireIndex, delta });
  }

  function writeDelta(state: BlockState, wireIndex: number, delta: BlockDelta): string {
    if (delta.text === '') return '';
    const kind = state.kind;
    if (delta.kind === 'text' && kind.kind === 'text') return deltaEvent(wireIndex, { type: 'text_delta', text: delta.text });
    if (delta.kind === 'reasoning' && kind.kind === 'reasoning' && kind.redacted !== true) {
      return deltaEvent(wireIndex, { type: 'thinking_delta', thinking: delta.text });
    }
    if (delta.kind === 'tool-arguments' && kind.kind === 'tool-call') {
      if (kind.toolKind === 'custom') {
        state.customInput += delta.text;
        return '';
      }
      return deltaEvent(wireIndex, { type: 'input_json_delta', partial_json: delta.text });
    }
    return '';
  }

  /**
   * The text-less thinking block that carries a tool call's foreign blob, right before the call
   * (see callBlobCarrier in encode-response.ts). Only a blob known when the call starts can go
   * there; Gemini gives it with the call's first part, so one arriving later is not carried.
   */
  function callBlobCarrierBlock(kind: BlockKind): string {
    if (kind.kind !== 'tool-call') return '';
    const carrier = callBlobCarrier(kind.blob);
    if (carrier === undefined) return '';
    const wireIndex = nextWireIndex;
    nextWireIndex += 1;
    return (
      messagesSseEvent('content_block_start', { type: 'content_block_start', index: wireIndex, content_block: { type: 'thinking', thinking: '', signature: '' } }) +
      deltaEvent(wireIndex, { type: 'signature_delta', signature: carrier.signature }) +
      messagesSseEvent('content_block_stop', { type: 'content_block_stop', index: wireIndex })
    );
  }

  function open(state: BlockState): string {
    const carrier = callBlobCarrierBlock(state.kind);
    const wireIndex = nextWireIndex;
    nextWireIndex += 1;
    onWire = { state, wireIndex };
    let text = carrier + messagesSseEvent('content_block_start', {
      type: 'content_block_start',
      index: wireIndex,
      content_block: blockStart(state.kind, state.endBlob),
    });
    for (const delta of state.pending.splice(0)) text += writeDelta(state, wireIndex, delta);
    return text;
  }

  /**
   * Closes the block on the wire. Thinking gets its signature just before the stop, as Anthropic
   * sends it; a blob from another provider is handed out the same way (see encode-response.ts).
   */
  function closeOnWire(): string {
    if (onWire === undefined) return '';
    const { state, wireIndex } = onWire;
    onWire = undefined;
    let text = '';
    const kind = state.kind;
    const blob = state.endBlob ?? (kind.kind === 'reasoning' ? kind.blob : undefined);
    const redactedOnWire = kind.kind === 'reasoning' && kind.redacted === true && blob?.provider === 'anthropic';
    if (kind.kind === 'reasoning' && !redactedOnWire && blob !== undefined) {
      // The item id rides in the tag: OpenAI takes encrypted reasoning back only inside its item.
      text += deltaEvent(wireIndex, { type: 'signature_delta', signature: clientBlobValue(blob, 'anthropic', kind.redacted === true, kind.itemId) });
    }
    if (kind.kind === 'tool-call' && kind.toolKind === 'custom') {
      text += deltaEvent(wireIndex, { type: 'input_json_delta', partial_json: JSON.stringify({ input: state.customInput }) });
    }
    return text + messagesSseEvent('content_block_stop', { type: 'content_block_stop', index: wireIndex });
  }

  /** Puts waiting blocks on the wire in order of start until one is still open. */
  function drain(): string {
    let text = '';
    while (onWire === undefined) {
      const next = waiting.shift();
      if (next === undefined) break;
      text += open(next);
      if (next.ended) text += closeOnWire();
    }
    return text;
  }

  function finish(info: FinishInfo, finalUsage: Usage): string {
    // The IR ends every block before response-end; anything left open is closed all the same.
    for (const state of blocks.values()) state.ended = true;
    let text = closeOnWire() + drain();
    phase = 'finished';
    text += messagesSseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: messagesStopReason(info, sawToolCall), stop_sequence: info.stopSequence ?? null },
      usage: messagesUsageFromUsage(finalUsage),
    });
    return text + messagesSseEvent('message_stop', { type: 'message_stop' });
  }

  return {
    encode(event: IrStreamEvent): string {
      if (phase === 'finished') return '';
      switch (event.type) {
        case 'response-start':
          return start(event.id, event.usage);
        case 'block-start': {
          const prefix = start('', undefined);
          if (blocks.has(event.index)) return prefix;
          const state: BlockState = { kind: event.block, pending: [], ended: false, endBlob: undefined, customInput: '' };
          if (event.block.kind === 'tool-call') sawToolCall = true;
          blocks.set(event.index, state);
          waiting.push(state);
          return prefix + drain();
        }
        case 'block-delta': {
          const prefix = start('', undefined);
          const state = blocks.get(event.index);
          if (state === undefined || state.ended) return prefix;
          if (onWire?.state === state) return prefix + writeDelta(state, onWire.wireIndex, event.delta);
          state.pending.push(event.delta);
          return prefix;
        }
        case 'block-end': {
          const state = blocks.get(event.index);
          if (state === undefined || state.ended) return '';
          state.ended = true;
          state.endBlob = event.blob;
          if (onWire?.state !== state) return '';
          return closeOnWire() + drain();
        }
        case 'usage':
          usage = event.usage;
          return '';
        case 'response-end':
          // Some upstreams report usage only in a usage event; keep it when the end carries none.
          return start('', undefined) + finish(event.finish, isEmptyUsage(event.usage) ? usage : event.usage);
        case 'error':
          // Anthropic sends the error and ends the stream: no block stops, no message_stop.
          phase = 'finished';
          return encodeMessagesStreamError(toGatewayError(event.error), context.requestId);
      }
    },
    keepAlive(): string {
      return messagesSseEvent('ping', { type: 'ping' });
    },
  };
}
