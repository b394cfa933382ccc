import { GatewayError } from '../../errors/gateway-error.js';
import type { ContentPart, IrMessage, ReasoningPart, ToolResultPart } from '../../ir/index.js';
import { joinNamespacedName } from '../../wire/responses/namespaced-tool.js';
import { blobFromClientValue } from '../../ir/client-blob.js';
import { decodeContent, type DecodedPart } from './decode-content.js';
import { parseOrThrow } from '../validation/openai-parse-or-throw.js';
import {
  callOutputItemSchema,
  customToolCallItemSchema,
  functionCallItemSchema,
  itemReferenceSchema,
  messageItemSchema,
  reasoningItemSchema,
} from './responses-request-schema.js';

export interface DecodedInput {
  readonly messages: IrMessage[];
  /** `item_reference` items by input position: they point at stored items the IR cannot hold. */
  readonly itemReferences: { readonly index: number; readonly id: string }[];
  /** Items of kinds the IR has no form for (hosted tool calls echoed back, …), by input position. */
  readonly otherItems: { readonly index: number; readonly item: Record<string, unknown> }[];
}

/**
 * Responses input items as IR turns. One model turn arrives as several items (reasoning, message,
 * function calls), so consecutive assistant-side items form one assistant turn and consecutive
 * call outputs one tool turn, as the other formats expect.
 */
export function decodeInput(input: string | readonly Record<string, unknown>[] | null | undefined, instructions: string | null | undefined): DecodedInput {
  const decoded: DecodedInput = { messages: [], itemReferences: [], otherItems: [] };
  const messages = decoded.messages;
  if (instructions) messages.push({ role: 'system', content: [{ type: 'text', text: instructions }] });
  if (input === null || input === undefined) return decoded;
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input === '' ? [] : [{ type: 'text', text: input }] });
    return decoded;
  }
  let assistant: ContentPart[] | undefined;
  let results: ToolResultPart[] | undefined;
  const callNames = new Map<string, string>();
  const flush = (): void => {
    if (assistant !== undefined) messages.push({ role: 'assistant', content: assistant });
    if (results !== undefined) messages.push({ role: 'tool', content: results });
    assistant = undefined;
    results = undefined;
  };
  const toAssistant = (part: ContentPart): void => {
    if (results !== undefined) flush();
    (assistant ??= []).push(part);
  };

  input.forEach((item, index) => {
    const path = ['input', index] as const;
    const type = item['type'] ?? 'message';
    switch (type) {
      case 'message': {
        const message = parseOrThrow(messageItemSchema, item, path);
        const content = decodeContent(message.content, `input[${index}].content`);
        if (message.role === 'assistant') {
          for (const part of content) toAssistant(part);
          return;
        }
        flush();
        if (message.role === 'user') messages.push({ role: 'user', content });
        else messages.push({ role: 'system', content, ...(message.role === 'developer' ? { developer: true } : {}) });
        return;
      }
      case 'function_call': {
        const call = parseOrThrow(functionCallItemSchema, item, path);
        const name = call.namespace ? joinNamespacedName(call.namespace, call.name) : call.name;
        callNames.set(call.call_id, name);
        toAssistant({ type: 'tool-call', id: call.call_id, name, arguments: call.arguments, ...(call.id ? { itemId: call.id } : {}) });
        return;
      }
      case 'custom_tool_call': {
        const call = parseOrThrow(customToolCallItemSchema, item, path);
        const name = call.namespace ? joinNamespacedName(call.namespace, call.name) : call.name;
        callNames.set(call.call_id, name);
        toAssistant({ type: 'tool-call', id: call.call_id, name, arguments: call.input, kind: 'custom', ...(call.id ? { itemId: call.id } : {}) });
        return;
      }
      case 'reasoning':
        toAssistant(decodeReasoning(parseOrThrow(reasoningItemSchema, item, path)));
        return;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output = parseOrThrow(callOutputItemSchema, item, path);
        if (assistant !== undefined) flush();
        const name = callNames.get(output.call_id);
        (results ??= []).push({
          type: 'tool-result',
          callId: output.call_id,
          content: toolResultContent(decodeContent(output.output, `input[${index}].output`)),
          ...(name === undefined ? {} : { name }),
          ...(type === 'custom_tool_call_output' ? { kind: 'custom' as const } : {}),
        });
        return;
      }
      case 'item_reference':
        decoded.itemReferences.push({ index, id: parseOrThrow(itemReferenceSchema, item, path).id });
        return;
      default:
        if (typeof type !== 'string') {
          throw new GatewayError('invalid_field', `Invalid value for 'input[${index}].type': expected a string.`, { param: `input[${index}].type` });
        }
        decoded.otherItems.push({ index, item });
    }
  });
  flush();
  return decoded;
}

function decodeReasoning(item: {
  id?: string | null | undefined;
  summary?: readonly { type: string; text: string }[] | null | undefined;
  encrypted_content?: string | null | undefined;
  content?: readonly { type: string; text: string }[] | null | undefined;
}): ReasoningPart {
  const summary = (item.summary ?? []).map((part) => part.text);
  // Raw reasoning text (`content`) stands in when there is no summary (open-weight models).
  const text = summary.length > 0 ? summary.join('\n\n') : (item.content ?? []).map((part) => part.text).join('');
  const decodedBlob = item.encrypted_content ? blobFromClientValue(item.encrypted_content, 'openai') : undefined;
  return {
    type: 'reasoning',
    text,
    ...(decodedBlob === undefined ? {} : { blob: decodedBlob.blob }),
    ...(decodedBlob?.redacted ? { redacted: true } : {}),
    ...(item.id ? { itemId: item.id } : {}),
  };
}

/** A lone text part is kept as a plain string, which is how most tool results are sent. */
function toolResultContent(parts: readonly DecodedPart[]): string | DecodedPart[] {
  const only = parts[0];
  if (parts.length === 0) return '';
  if (parts.length === 1 && only !== undefined && only.type === 'text') return only.text;
  return [...parts];
}
