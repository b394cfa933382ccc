import { GatewayError } from '../../../errors/gateway-error.js';
import { zeroUsage, type BlockKind, type IrStreamEvent, type ProviderBlob } from '../../../ir/index.js';
import { blobFromClientValue } from '../../../ir/client-blob.js';
import { isRecord, parseJson, readRecord, readString } from '../../../json/json-value.js';
import { gatewayErrorFromResponses, parseResponsesError } from '../../../wire/responses/responses-error.js';
import { finishFromResponses } from '../../../wire/responses/responses-status.js';
import { usageFromResponsesUsage } from '../../../wire/responses/responses-usage.js';
import type { StreamDecoder } from '../../provider-adapter.js';
import { readOutputItem, reasoningText } from './output-item.js';

/** One upstream output item, keyed by its `output_index`. */
interface ItemState {
  readonly kind: 'message' | 'reasoning' | 'call' | 'hosted';
  readonly itemId: string;
  /** The IR block, once opened: messages and reasoning open on their first text, calls at once. */
  block: number | undefined;
  /** Text sent as deltas so far, so a final text that arrived without deltas is not lost. */
  emitted: string;
  /** Which stream feeds reasoning text: summary deltas, or raw reasoning text (open-weight models). */
  reasoningSource: 'summary' | 'content' | undefined;
  lastSummaryIndex: number | undefined;
  done: boolean;
}

/**
 * Responses SSE → IR events, as an explicit state machine over the event sequence: waiting for
 * `response.created`, then streaming output items (each item an IR block, opened when it first has
 * something to show), then ended by `response.completed` / `response.incomplete` (response-end),
 * `response.failed` or an `error` event (error). Hosted tool items (web_search_call,
 * image_generation_call, …) and their events have no IR form and are skipped.
 */
export function createResponsesStreamDecoder(): StreamDecoder {
  let phase: 'waiting' | 'streaming' | 'ended' = 'waiting';
  let nextBlock = 0;
  let sawToolCall = false;
  let refused = false;
  const items = new Map<number, ItemState>();

  function begin(events: IrStreamEvent[], response: Record<string, unknown> | undefined): void {
    if (phase !== 'waiting') return;
    phase = 'streaming';
    const createdAt = response?.['created_at'];
    events.push({
      type: 'response-start',
      id: (response && readString(response, 'id')) ?? '',
      model: (response && readString(response, 'model')) ?? '',
      created: typeof createdAt === 'number' ? createdAt : Math.floor(Date.now() / 1000),
    });
  }

  function open(events: IrStreamEvent[], state: ItemState, block: BlockKind): number {
    const index = nextBlock;
    nextBlock += 1;
    state.block = index;
    events.push({ type: 'block-start', index, block });
    return index;
  }

  function append(events: IrStreamEvent[], state: ItemState, text: string): void {
    if (text === '' || state.done) return;
    if (state.block === undefined) {
      if (state.kind === 'message') open(events, state, { kind: 'text' });
      else if (state.kind === 'reasoning') open(events, state, { kind: 'reasoning', ...(state.itemId ? { itemId: state.itemId } : {}) });
      else return;
    }
    const index = state.block ?? 0;
    state.emitted += text;
    const kind = state.kind === 'message' ? 'text' : state.kind === 'reasoning' ? 'reasoning' : 'tool-arguments';
    events.push({ type: 'block-delta', index, delta: { kind, text } });
  }

  /** A final text (from a `.done` event or the finished item) counts only when no delta carried it. */
  function settle(events: IrStreamEvent[], state: ItemState, finalText: string): void {
    if (state.emitted === '' && finalText !== '') append(events, state, finalText);
  }

  function close(events: IrStreamEvent[], state: ItemState, blob?: ProviderBlob): void {
    if (state.done) return;
    state.done = true;
    if (state.block !== undefined) events.push({ type: 'block-end', index: state.block, ...(blob === undefined ? {} : { blob }) });
  }

  function closeAll(events: IrStreamEvent[]): void {
    for (const state of items.values()) close(events, state);
  }

  function itemAdded(events: IrStreamEvent[], outputIndex: number, item: Record<string, unknown>): void {
    const read = readOutputItem(item);
    const kind = read.kind;
    const state: ItemState = { kind, itemId: readString(item, 'id') ?? '', block: undefined, emitted: '', reasoningSource: undefined, lastSummaryIndex: undefined, done: false };
    items.set(outputIndex, state);
    if (read.kind !== 'call') return;
    sawToolCall = true;
    const call = read.part;
    open(events, state, {
      kind: 'tool-call',
      id: call.id,
      name: call.name,
      ...(call.kind === 'custom' ? { toolKind: 'custom' as const } : {}),
      ...(call.itemId === undefined ? {} : { itemId: call.itemId }),
    });
    append(events, state, call.arguments);
  }

  function itemDone(events: IrStreamEvent[], state: ItemState, item: Record<string, unknown>): void {
    const read = readOutputItem(item);
    if (read.kind === 'message') {
      refused ||= read.refused;
      settle(events, state, read.text);
      close(events, state);
    } else if (read.kind === 'reasoning') {
      const encrypted = readString(item, 'encrypted_content');
      const blob = encrypted ? blobFromClientValue(encrypted, 'openai').blob : undefined;
      // Encrypted-only reasoning still needs its block: the blob is what must round-trip.
      if (state.block === undefined && blob !== undefined) open(events, state, { kind: 'reasoning', ...(state.itemId ? { itemId: state.itemId } : {}) });
      settle(events, state, reasoningText(item));
      close(events, state, blob);
    } else if (read.kind === 'call') {
      settle(events, state, read.part.arguments);
      close(events, state);
    } else {
      state.done = true;
    }
  }

  function reasoningDelta(events: IrStreamEvent[], state: ItemState, source: 'summary' | 'content', payload: Record<string, unknown>): void {
    if (state.kind !== 'reasoning') return;
    state.reasoningSource ??= source;
    if (state.reasoningSource !== source) return;
    const delta = readString(payload, 'delta') ?? '';
    const summaryIndex = payload['summary_index'];
    if (source === 'summary' && typeof summaryIndex === 'number') {
      // Summary parts are joined by a blank line, as the finished item's summary is read.
      if (state.lastSummaryIndex !== undefined && summaryIndex !== state.lastSummaryIndex && state.emitted !== '') append(events, state, '\n\n');
      state.lastSummaryIndex = summaryIndex;
    }
    append(events, state, delta);
  }

  function terminate(events: IrStreamEvent[], type: string, response: Record<string, unknown> | undefined): IrStreamEvent[] {
    closeAll(events);
    phase = 'ended';
    if (type === 'response.failed') {
      events.push({ type: 'error', error: gatewayErrorFromResponses(parseResponsesError(response?.['error'])) });
      return events;
    }
    const status = (response && readString(response, 'status')) ?? (type === 'response.incomplete' ? 'incomplete' : 'completed');
    const finish = finishFromResponses({
      status,
      incompleteReason: readString(readRecord(response, 'incomplete_details') ?? {}, 'reason'),
      hasToolCalls: sawToolCall,
      refused,
    });
    events.push({ type: 'response-end', finish, usage: usageFromResponsesUsage(response?.['usage']) ?? zeroUsage });
    return events;
  }

  function fail(events: IrStreamEvent[], error: GatewayError): IrStreamEvent[] {
    closeAll(events);
    phase = 'ended';
    events.push({ type: 'error', error });
    return events;
  }

  return {
    push(eventName: string | undefined, data: string): IrStreamEvent[] {
      if (phase === 'ended') return [];
      const events: IrStreamEvent[] = [];
      if (data.trim() === '' || data.trim() === '[DONE]') return events;
      const payload = parseJson(data);
      if (!isRecord(payload)) {
        return fail(events, new GatewayError('upstream_invalid_response', 'The upstream sent a stream event that is not a JSON object.'));
      }
      const type = readString(payload, 'type') ?? eventName ?? '';
      if (type === 'error') return fail(events, gatewayErrorFromResponses(parseResponsesError(payload)));
      const response = readRecord(payload, 'response');
      begin(events, response);
      if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') return terminate(events, type, response);
      const outputIndex = payload['output_index'];
      if (typeof outputIndex !== 'number') return events;
      const item = readRecord(payload, 'item');
      if (type === 'response.output_item.added') {
        if (item !== undefined && !items.has(outputIndex)) itemAdded(events, outputIndex, item);
        return events;
      }
      const state = items.get(outputIndex);
      if (state === undefined || state.done) return events;
      switch (type) {
        case 'response.output_item.done':
          if (item !== undefined) itemDone(events, state, item);
          break;
        case 'response.output_text.delta':
          if (state.kind === 'message') append(events, state, readString(payload, 'delta') ?? '');
          break;
        case 'response.refusal.delta':
          if (state.kind === 'message') {
            refused = true;
            append(events, state, readString(payload, 'delta') ?? '');
          }
          break;
        case 'response.reasoning_summary_text.delta':
          reasoningDelta(events, state, 'summary', payload);
          break;
        case 'response.reasoning_text.delta':
          reasoningDelta(events, state, 'content', payload);
          break;
        case 'response.function_call_arguments.delta':
        case 'response.custom_tool_call_input.delta':
          if (state.kind === 'call') append(events, state, readString(payload, 'delta') ?? '');
          break;
        case 'response.function_call_arguments.done':
          if (state.kind === 'call') settle(events, state, readString(payload, 'arguments') ?? '');
          break;
        case 'response.custom_tool_call_input.done':
          if (state.kind === 'call') settle(events, state, readString(payload, 'input') ?? '');
          break;
        default:
          // content_part.*, *.done texts (the finished item is authoritative), annotations, hosted tool progress.
          break;
      }
      return events;
    },
    end(): IrStreamEvent[] {
      if (phase === 'ended') return [];
      return fail([], new GatewayError('upstream_invalid_response', 'The upstream stream ended before response.completed.'));
    },
  };
}
