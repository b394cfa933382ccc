import type { OutputPart } from '../../../ir/index.js';
import { isRecord, readString } from '../../../json/json-value.js';
import { joinNamespacedName } from '../../../wire/responses/namespaced-tool.js';
import { blobFromClientValue } from '../../../ir/client-blob.js';

/** What an upstream output item means in IR terms; hosted tool items (web search, images, …) have no IR form. */
export type ReadItem =
  | { readonly kind: 'message'; readonly text: string; readonly refused: boolean }
  | { readonly kind: 'reasoning'; readonly part: Extract<OutputPart, { type: 'reasoning' }> }
  | { readonly kind: 'call'; readonly part: Extract<OutputPart, { type: 'tool-call' }> }
  | { readonly kind: 'hosted'; readonly type: string };

export function readOutputItem(item: Record<string, unknown>): ReadItem {
  const type = readString(item, 'type') ?? '';
  switch (type) {
    case 'message':
      return readMessage(item);
    case 'reasoning':
      return { kind: 'reasoning', part: readReasoning(item) };
    case 'function_call':
    case 'custom_tool_call': {
      const custom = type === 'custom_tool_call';
      const itemId = readString(item, 'id');
      return {
        kind: 'call',
        part: {
          type: 'tool-call',
          id: readString(item, 'call_id') || itemId || '',
          name: callName(item),
          arguments: readString(item, custom ? 'input' : 'arguments') ?? '',
          ...(custom ? { kind: 'custom' as const } : {}),
          ...(itemId ? { itemId } : {}),
        },
      };
    }
    default:
      return { kind: 'hosted', type };
  }
}

/** A call's IR name: a function of a `namespace` tool is named `<namespace>__<name>` in the IR. */
export function callName(item: Record<string, unknown>): string {
  const name = readString(item, 'name') ?? '';
  const namespace = readString(item, 'namespace');
  return namespace ? joinNamespacedName(namespace, name) : name;
}

function readMessage(item: Record<string, unknown>): ReadItem {
  let text = '';
  let refused = false;
  const content = Array.isArray(item['content']) ? (item['content'] as unknown[]) : [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part['type'] === 'output_text') text += readString(part, 'text') ?? '';
    else if (part['type'] === 'refusal') {
      refused = true;
      text += readString(part, 'refusal') ?? '';
    }
  }
  return { kind: 'message', text, refused };
}

/** Summary parts joined by a blank line (as the responses format decodes them); raw reasoning text when there is no summary. */
export function reasoningText(item: Record<string, unknown>): string {
  const texts = (field: string): string[] =>
    (Array.isArray(item[field]) ? (item[field] as unknown[]) : []).flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : []));
  const summary = texts('summary');
  return summary.length > 0 ? summary.join('\n\n') : texts('content').join('');
}

function readReasoning(item: Record<string, unknown>): Extract<OutputPart, { type: 'reasoning' }> {
  const encrypted = readString(item, 'encrypted_content');
  const decoded = encrypted ? blobFromClientValue(encrypted, 'openai') : undefined;
  const itemId = readString(item, 'id');
  return {
    type: 'reasoning',
    text: reasoningText(item),
    ...(decoded === undefined ? {} : { blob: decoded.blob }),
    ...(itemId ? { itemId } : {}),
  };
}
