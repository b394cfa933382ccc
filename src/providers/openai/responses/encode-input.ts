import type { ContentPart, FilePart, ImagePart, IrMessage, IrTool, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from '../../../ir/index.js';
import { splitToolName } from '../../../wire/responses/namespaced-tool.js';

type Item = Record<string, unknown>;

export interface EncodedInput {
  readonly instructions: string | undefined;
  readonly input: Item[];
}

/**
 * IR turns as Responses input items. Leading system turns (not developer messages) become
 * `instructions`; an assistant turn becomes its reasoning, message and call items in order;
 * tool results become `function_call_output` / `custom_tool_call_output` items wherever they sit.
 * Reasoning is sent back only with an OpenAI blob and its item id: that is what store:false needs,
 * and another provider's reasoning means nothing to OpenAI.
 */
export function encodeInput(messages: readonly IrMessage[], tools: readonly IrTool[] | undefined): EncodedInput {
  const instructionTexts: string[] = [];
  let leading = true;
  const input: Item[] = [];
  for (const message of messages) {
    if (leading && message.role === 'system' && !message.developer) {
      instructionTexts.push(texts(message.content));
      continue;
    }
    leading = false;
    switch (message.role) {
      case 'system':
        input.push({ type: 'message', role: message.developer ? 'developer' : 'system', content: inputParts(message.content) });
        break;
      case 'assistant':
        input.push(...assistantItems(message.content, tools));
        break;
      case 'user':
      case 'tool':
        input.push(...userItems(message.content));
        break;
    }
  }
  return { instructions: instructionTexts.length > 0 ? instructionTexts.join('\n\n') : undefined, input };
}

function texts(parts: readonly ContentPart[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

function assistantItems(parts: readonly ContentPart[], tools: readonly IrTool[] | undefined): Item[] {
  const items: Item[] = [];
  let text: string | undefined;
  const flushText = (): void => {
    if (text !== undefined) items.push({ type: 'message', role: 'assistant', content: text });
    text = undefined;
  };
  for (const part of parts) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'reasoning') {
      flushText();
      const reasoning = reasoningItem(part);
      if (reasoning !== undefined) items.push(reasoning);
    } else if (part.type === 'tool-call') {
      flushText();
      items.push(callItem(part, tools));
    } else if (part.type === 'tool-result') {
      flushText();
      items.push(resultItem(part));
    }
  }
  flushText();
  return items;
}

function reasoningItem(part: ReasoningPart): Item | undefined {
  if (part.blob?.provider !== 'openai' || part.itemId === undefined) return undefined;
  return {
    type: 'reasoning',
    id: part.itemId,
    summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    encrypted_content: part.blob.value,
  };
}

function callItem(part: ToolCallPart, tools: readonly IrTool[] | undefined): Item {
  const { name, namespace } = splitToolName(part.name, tools);
  const custom = part.kind === 'custom';
  // Item ids from another provider (or minted for another client) are not OpenAI's; the call id is enough.
  const id = part.itemId !== undefined && part.itemId.startsWith(custom ? 'ctc_' : 'fc_') ? { id: part.itemId } : {};
  const withNamespace = namespace === undefined ? {} : { namespace };
  if (custom) return { type: 'custom_tool_call', ...id, call_id: part.id, name, input: part.arguments, ...withNamespace };
  return { type: 'function_call', ...id, call_id: part.id, name, arguments: part.arguments === '' ? '{}' : part.arguments, ...withNamespace };
}

function resultItem(part: ToolResultPart): Item {
  const output = typeof part.content === 'string' ? part.content : part.content.map(inputPart);
  return { type: part.kind === 'custom' ? 'custom_tool_call_output' : 'function_call_output', call_id: part.callId, output };
}

/** A user (or tool) turn: its content as one user message, its tool results as output items, in order. */
function userItems(parts: readonly ContentPart[]): Item[] {
  const items: Item[] = [];
  let pending: ContentPart[] = [];
  const flush = (): void => {
    if (pending.length > 0) items.push({ type: 'message', role: 'user', content: inputParts(pending) });
    pending = [];
  };
  for (const part of parts) {
    if (part.type === 'tool-result') {
      flush();
      items.push(resultItem(part));
    } else {
      pending.push(part);
    }
  }
  flush();
  if (items.length === 0) items.push({ type: 'message', role: 'user', content: '' });
  return items;
}

function inputParts(parts: readonly ContentPart[]): Item[] {
  return parts.flatMap((part) => (part.type === 'text' || part.type === 'image' || part.type === 'file' ? [inputPart(part)] : []));
}

function inputPart(part: TextPart | ImagePart | FilePart): Item {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  if (part.type === 'image') {
    const source = part.source;
    const detail = part.detail ?? 'auto';
    if (source.kind === 'file') return { type: 'input_image', file_id: source.fileId, detail };
    const url = source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
    return { type: 'input_image', image_url: url, detail };
  }
  const source = part.source;
  switch (source.kind) {
    case 'file':
      return { type: 'input_file', file_id: source.fileId, ...(part.filename === undefined ? {} : { filename: part.filename }) };
    case 'url':
      return { type: 'input_file', file_url: source.url, ...(part.filename === undefined ? {} : { filename: part.filename }) };
    case 'text':
      return { type: 'input_text', text: source.text };
    case 'base64':
      if (source.mediaType.startsWith('image/')) return { type: 'input_image', image_url: `data:${source.mediaType};base64,${source.data}`, detail: 'auto' };
      if (source.mediaType === 'audio/mpeg' || source.mediaType === 'audio/wav') {
        return { type: 'input_audio', input_audio: { data: source.data, format: source.mediaType === 'audio/mpeg' ? 'mp3' : 'wav' } };
      }
      // OpenAI requires a filename with inline file data.
      return { type: 'input_file', file_data: `data:${source.mediaType};base64,${source.data}`, filename: part.filename ?? 'file' };
  }
}
