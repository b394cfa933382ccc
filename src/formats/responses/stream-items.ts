import type { BlockKind, IrTool, ProviderBlob } from '../../ir/index.js';
import type { ResponsesItemStatus, ResponsesOutputItem } from '../../wire/responses/responses-wire-types.js';
import { callItem, messageItem, outputText, reasoningItem } from './output-items.js';
import { outputItemId } from './response-ids.js';

/** Writes one Responses stream event (the encoder adds `type`, `sequence_number` and framing). */
export type Emit = (type: string, fields: Record<string, unknown>) => string;

/** One output item being streamed, opened by an IR block-start. */
export interface StreamItem {
  readonly outputIndex: number;
  readonly id: string;
  readonly block: BlockKind;
  text: string;
  /** Reasoning: whether the summary part was announced (only once there is summary text). */
  summaryOpen: boolean;
  blob: ProviderBlob | undefined;
}

export function openItem(block: BlockKind, outputIndex: number, responseIdentifier: string): StreamItem {
  const prefix = block.kind === 'text' ? 'msg' : block.kind === 'reasoning' ? 'rs' : block.toolKind === 'custom' ? 'ctc' : 'fc';
  const upstreamItemId = block.kind === 'text' ? undefined : block.itemId;
  return {
    outputIndex,
    id: outputItemId(prefix, responseIdentifier, outputIndex, upstreamItemId),
    block,
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
export function itemAddedEvents(item: StreamItem, emit: Emit, tools: readonly IrTool[] | undefined): string {
  let text = emit('response.output_item.added', { output_index: item.outputIndex, item: snapshot(item, 'in_progress', tools) });
  if (item.block.kind === 'text') {
    text += emit('response.content_part.added', { ...address(item), content_index: 0, part: outputText('') });
  }
  return text;
}

/** The delta event for a fragment of the item's text, reasoning or call input. */
export function itemDeltaEvents(item: StreamItem, fragment: string, emit: Emit): string {
  item.text += fragment;
  switch (item.block.kind) {
    case 'text':
      return emit('response.output_text.delta', { ...address(item), content_index: 0, delta: fragment, logprobs: [] });
    case 'reasoning': {
      let text = '';
      if (!item.summaryOpen) {
        item.summaryOpen = true;
        text += emit('response.reasoning_summary_part.added', { ...address(item), summary_index: 0, part: { type: 'summary_text', text: '' } });
      }
      return text + emit('response.reasoning_summary_text.delta', { ...address(item), summary_index: 0, delta: fragment });
    }
    case 'tool-call':
      return item.block.toolKind === 'custom'
        ? emit('response.custom_tool_call_input.delta', { ...address(item), delta: fragment })
        : emit('response.function_call_arguments.delta', { ...address(item), delta: fragment });
  }
}

/** The closing events of an item, ending with `output_item.done` holding the complete item (Codex reads that one). */
export function itemDoneEvents(item: StreamItem, emit: Emit, tools: readonly IrTool[] | undefined): string {
  const done = snapshot(item, 'completed', tools);
  let text = '';
  switch (done.type) {
    case 'message':
      text += emit('response.output_text.done', { ...address(item), content_index: 0, text: item.text, logprobs: [] });
      text += emit('response.content_part.done', { ...address(item), content_index: 0, part: outputText(item.text) });
      break;
    case 'reasoning':
      if (item.summaryOpen) {
        text += emit('response.reasoning_summary_text.done', { ...address(item), summary_index: 0, text: item.text });
        text += emit('response.reasoning_summary_part.done', { ...address(item), summary_index: 0, part: { type: 'summary_text', text: item.text } });
      }
      break;
    case 'function_call':
      text += emit('response.function_call_arguments.done', { ...address(item), name: done.name, arguments: done.arguments });
      break;
    case 'custom_tool_call':
      text += emit('response.custom_tool_call_input.done', { ...address(item), input: done.input });
      break;
  }
  return text + emit('response.output_item.done', { output_index: item.outputIndex, item: done });
}

function address(item: StreamItem): { item_id: string; output_index: number } {
  return { item_id: item.id, output_index: item.outputIndex };
}
