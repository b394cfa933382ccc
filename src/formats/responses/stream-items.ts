import type { BlockKind, IrTool, ProviderBlob } from '../../ir/index.js';
import type { ResponsesItemStatus, ResponsesOutputItem } from '../../wire/responses/responses-wire-types.js';
import { callItem, messageItem, outputText, reasoningItem } from './output-items.js';
import { outputItemId } from './response-ids.js';
import { eventHead, type EventWriter } from './stream-event-writer.js';

/** One output item being streamed, opened by an IR block-start. */
export interface StreamItem {
  readonly outputIndex: number;
  readonly id: string;
  readonly block: BlockKind;
  /** `,"item_id":…,"output_index":…` as JSON, written once and reused by every delta event. */
  readonly address: string;
  text: string;
  /** Reasoning: whether the summary part was announced (only once there is summary text). */
  summaryOpen: boolean;
  blob: ProviderBlob | undefined;
}

export function openItem(block: BlockKind, outputIndex: number, responseIdentifier: string): StreamItem {
  const prefix = block.kind === 'text' ? 'msg' : block.kind === 'reasoning' ? 'rs' : block.toolKind === 'custom' ? 'ctc' : 'fc';
  const upstreamItemId = block.kind === 'text' ? undefined : block.itemId;
  const id = outputItemId(prefix, responseIdentifier, outputIndex, upstreamItemId);
  return {
    outputIndex,
    id,
    block,
    address: `,"item_id":${JSON.stringify(id)},"output_index":${outputIndex}`,
    text: '',
    summaryOpen: false,
    blob: block.kind === 'text' ? undefined : block.blob,
  };
}

/** The item as it stands; `final` when it is complete. */
export function snapshot(item: StreamItem, status: ResponsesItemStatus, tools: readonly IrTool[] | undefined): ResponsesOutputItem {
  const block = item.block;
  switch (block.kind) {
    case 'text':
      return messageItem(item.id, status === 'in_progress' ? undefined : item.text, status);
    case 'reasoning':
      return reasoningItem(item.id, status === 'in_progress' ? '' : item.text, status === 'in_progress' ? undefined : item.blob, block.redacted === true);
    case 'tool-call': {
      const custom = block.toolKind === 'custom';
      // The IR treats "" as {}; clients JSON.parse function arguments.
      const text = status === 'completed' && !custom && item.text === '' ? '{}' : item.text;
      return callItem({ id: item.id, callId: block.id, name: block.name, custom, text: status === 'in_progress' ? '' : text, status }, tools);
    }
  }
}

/** `output_item.added` and, for messages, the content part the SDK needs before any delta. */
export function itemAddedEvents(item: StreamItem, writer: EventWriter, tools: readonly IrTool[] | undefined): string {
  let text = writer.emit('response.output_item.added', { output_index: item.outputIndex, item: snapshot(item, 'in_progress', tools) });
  if (item.block.kind === 'text') {
    text += writer.emit('response.content_part.added', { item_id: item.id, output_index: item.outputIndex, content_index: 0, part: outputText('') });
  }
  return text;
}

// The delta events are most of a stream's events, so their JSON is written around the item's
// precomputed address and the escaped fragment, in the key order the object form had.
const textDeltaHead = eventHead('response.output_text.delta');
const summaryPartAddedHead = eventHead('response.reasoning_summary_part.added');
const summaryDeltaHead = eventHead('response.reasoning_summary_text.delta');
const customInputDeltaHead = eventHead('response.custom_tool_call_input.delta');
const argumentsDeltaHead = eventHead('response.function_call_arguments.delta');

/** The delta event for a fragment of the item's text, reasoning or call input. */
export function itemDeltaEvents(item: StreamItem, fragment: string, writer: EventWriter): string {
  item.text += fragment;
  const delta = JSON.stringify(fragment);
  switch (item.block.kind) {
    case 'text':
      return writer.emitJson(textDeltaHead, `${item.address},"content_index":0,"delta":${delta},"logprobs":[]`);
    case 'reasoning': {
      let text = '';
      if (!item.summaryOpen) {
        item.summaryOpen = true;
        text = writer.emitJson(summaryPartAddedHead, `${item.address},"summary_index":0,"part":{"type":"summary_text","text":""}`);
      }
      return text + writer.emitJson(summaryDeltaHead, `${item.address},"summary_index":0,"delta":${delta}`);
    }
    case 'tool-call':
      return writer.emitJson(item.block.toolKind === 'custom' ? customInputDeltaHead : argumentsDeltaHead, `${item.address},"delta":${delta}`);
  }
}

/**
 * The closing events of an item, ending with `output_item.done` holding the complete item (Codex
 * reads that one); `done` is the item's completed snapshot.
 */
export function itemDoneEvents(item: StreamItem, done: ResponsesOutputItem, writer: EventWriter): string {
  let text = '';
  switch (done.type) {
    case 'message':
      text += writer.emit('response.output_text.done', { item_id: item.id, output_index: item.outputIndex, content_index: 0, text: item.text, logprobs: [] });
      text += writer.emit('response.content_part.done', { item_id: item.id, output_index: item.outputIndex, content_index: 0, part: outputText(item.text) });
      break;
    case 'reasoning':
      if (item.summaryOpen) {
        text += writer.emit('response.reasoning_summary_text.done', { item_id: item.id, output_index: item.outputIndex, summary_index: 0, text: item.text });
        text += writer.emit('response.reasoning_summary_part.done', { item_id: item.id, output_index: item.outputIndex, summary_index: 0, part: { type: 'summary_text', text: item.text } });
      }
      break;
    case 'function_call':
      text += writer.emit('response.function_call_arguments.done', { item_id: item.id, output_index: item.outputIndex, name: done.name, arguments: done.arguments });
      break;
    case 'custom_tool_call':
      text += writer.emit('response.custom_tool_call_input.done', { item_id: item.id, output_index: item.outputIndex, input: done.input });
      break;
  }
  return text + writer.emit('response.output_item.done', { output_index: item.outputIndex, item: done });
}
