import { toGatewayError, type GatewayError } from '../../errors/gateway-error.js';
import type { BlockKind, FinishInfo, IrStreamEvent, Usage } from '../../ir/index.js';
import { isEmptyUsage, zeroUsage } from '../../ir/index.js';
import { responsesErrorObject } from '../../wire/responses/responses-error.js';
import { responsesOutcome } from '../../wire/responses/responses-status.js';
import { responsesUsageFromUsage } from '../../wire/responses/responses-usage.js';
import type { ResponsesObject, ResponsesOutputItem } from '../../wire/responses/responses-wire-types.js';
import type { EncodeContext, StreamEncoder } from '../client-format.js';
import { responsesErrorEventFields } from './encode-error.js';
import { carriesForeignCallBlob } from './output-items.js';
import { responseObject, type ResponseState } from './response-object.js';
import { responseId } from './response-ids.js';
import { createEventWriter, eventHead } from './stream-event-writer.js';
import { itemAddedEvents, itemDeltaEvents, itemDoneEvents, openItem, snapshot, type StreamItem } from './stream-items.js';

/**
 * IR stream events → Responses SSE: `response.created`, `response.in_progress`, the events of
 * every output item (each ending with `output_item.done` carrying the whole item, which is what
 * Codex reads), then exactly one of `response.completed` / `response.incomplete` /
 * `response.failed` holding the full output and usage. Every event has `type`, an `event:` line
 * and an increasing `sequence_number`.
 *
 * Each IR block is one output item, numbered (`output_index`) in the order blocks start. When
 * several blocks are open at once (parallel tool calls streamed by a chat upstream) their events
 * interleave as they arrive, each addressed by its own `item_id` and `output_index`, which the
 * format allows and the SDK accumulates per item; items are listed in `output_index` order.
 */
export function createResponsesStreamEncoder(context: EncodeContext): StreamEncoder {
  const tools = context.request.tools;
  let id = responseId('', context.requestId);
  let createdAt = Math.floor(Date.now() / 1000);
  const writer = createEventWriter();
  let started = false;
  let finished = false;
  let usage: Usage = zeroUsage;
  const open = new Map<number, StreamItem>();
  const output: (ResponsesOutputItem | undefined)[] = [];
  const openItems: StreamItem[] = [];

  /** An event carrying the Response object (stringified once even when written twice). */
  function responseEvents(types: readonly string[], response: ResponsesObject): string {
    const fields = `,"response":${JSON.stringify(response)}`;
    let text = '';
    for (const type of types) text += writer.emitJson(eventHead(type), fields);
    return text;
  }

  function state(fields: Omit<ResponseState, 'id' | 'createdAt'>): ResponseState {
    return { id, createdAt, ...fields };
  }

  function start(upstreamId: string, upstreamCreated: number): string {
    if (started) return '';
    started = true;
    id = responseId(upstreamId, context.requestId);
    createdAt = upstreamCreated;
    const response = responseObject(state({ status: 'in_progress', output: [], usage: null }), context);
    return responseEvents(['response.created', 'response.in_progress'], response);
  }

  /**
   * The summary-less reasoning item that carries a tool call's foreign blob, right before the call
   * (see carriesForeignCallBlob in output-items.ts). Only a blob known when the call starts can go
   * there; Gemini gives it with the call's first part, so one arriving later is not carried.
   */
  function callBlobCarrier(block: BlockKind): string {
    if (block.kind !== 'tool-call' || !carriesForeignCallBlob(block.blob)) return '';
    const item = openItem({ kind: 'reasoning', blob: block.blob }, output.length, id);
    const done = snapshot(item, 'completed', tools);
    output.push(done);
    return itemAddedEvents(item, writer, tools) + itemDoneEvents(item, done, writer);
  }

  function closeItem(blockIndex: number, item: StreamItem): string {
    open.delete(blockIndex);
    openItems.splice(openItems.indexOf(item), 1);
    const done = snapshot(item, 'completed', tools);
    output[item.outputIndex] = done;
    return itemDoneEvents(item, done, writer);
  }

  function closeAll(): string {
    let text = '';
    for (const [blockIndex, item] of [...open.entries()].sort((left, right) => left[1].outputIndex - right[1].outputIndex)) {
      text += closeItem(blockIndex, item);
    }
    return text;
  }

  /** Items in output order; those still open (an error cut them short) are marked incomplete. */
  function currentOutput(): ResponsesOutputItem[] {
    for (const item of openItems) output[item.outputIndex] = snapshot(item, 'incomplete', tools);
    return output.filter((item): item is ResponsesOutputItem => item !== undefined);
  }

  function finish(info: FinishInfo, finalUsage: Usage): string {
    const text = start('', createdAt) + closeAll();
    finished = true;
    const outcome = responsesOutcome(info);
    const response = responseObject(
      state({
        status: outcome.status,
        output: currentOutput(),
        usage: responsesUsageFromUsage(finalUsage),
        error: outcome.error,
        incompleteDetails: outcome.incompleteDetails,
      }),
      context,
    );
    return text + responseEvents([`response.${outcome.status}`], response);
  }

  function fail(error: GatewayError): string {
    let text = start('', createdAt);
    finished = true;
    text += writer.emit('error', responsesErrorEventFields(error));
    const response = responseObject(
      state({ status: 'failed', output: currentOutput(), usage: responsesUsageFromUsage(usage), error: responsesErrorObject(error) }),
      context,
    );
    return text + responseEvents(['response.failed'], response);
  }

  return {
    encode(event: IrStreamEvent): string {
      if (finished) return '';
      switch (event.type) {
        case 'response-start':
          if (event.usage) usage = event.usage;
          return start(event.id, event.created);
        case 'block-start': {
          const prefix = start('', createdAt);
          const previous = open.get(event.index);
          const closing = previous === undefined ? '' : closeItem(event.index, previous);
          const carrier = callBlobCarrier(event.block);
          const item = openItem(event.block, output.length, id);
          output.push(undefined);
          open.set(event.index, item);
          openItems.push(item);
          return prefix + closing + carrier + itemAddedEvents(item, writer, tools);
        }
        case 'block-delta': {
          const item = open.get(event.index);
          if (item === undefined || event.delta.text === '') return '';
          const expected = item.block.kind === 'tool-call' ? 'tool-arguments' : item.block.kind;
          if (event.delta.kind !== expected) return '';
          return itemDeltaEvents(item, event.delta.text, writer);
        }
        case 'block-end': {
          const item = open.get(event.index);
          if (item === undefined) return '';
          if (event.blob !== undefined) item.blob = event.blob;
          return closeItem(event.index, item);
        }
        case 'usage':
          usage = event.usage;
          return '';
        case 'response-end':
          // Some upstreams report usage only in a usage event; keep it when the end carries none.
          return finish(event.finish, isEmptyUsage(event.usage) ? usage : event.usage);
        case 'error':
          return fail(toGatewayError(event.error));
      }
    },
    keepAlive(): string {
      // An SSE comment: eventsource parsers (the SDKs, Codex) skip it without surfacing an event.
      return ': keep-alive\n\n';
    },
  };
}
