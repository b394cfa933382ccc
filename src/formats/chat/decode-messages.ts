import type { ContentPart, IrMessage, ToolCallPart } from '../../ir/index.js';
import type { ChatMessageInput } from './chat-request-schema.js';
import { decodeContent } from './decode-content.js';

/** Chat messages as IR messages; `function` (legacy) turns become tool results. */
export function decodeMessages(messages: readonly ChatMessageInput[]): IrMessage[] {
  // Legacy function calls carry no id: pair each `function` turn with the last call of that name.
  const legacyCallIds = new Map<string, string>();
  let legacyCallCount = 0;
  return messages.map((message, index): IrMessage => {
    const param = `messages[${index}].content`;
    switch (message.role) {
      case 'system':
      case 'developer':
        return withName(
          { role: 'system', content: decodeContent(message.content, param), ...(message.role === 'developer' ? { developer: true } : {}) },
          message.name,
        );
      case 'user':
        return withName({ role: 'user', content: decodeContent(message.content, param) }, message.name);
      case 'assistant': {
        const content: ContentPart[] = [];
        if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') {
          content.push({ type: 'reasoning', text: message.reasoning_content });
        }
        content.push(...decodeContent(message.content, param));
        if (typeof message.refusal === 'string' && message.refusal !== '') content.push({ type: 'text', text: message.refusal });
        for (const call of message.tool_calls ?? []) content.push(decodeToolCall(call));
        if (message.function_call) {
          legacyCallCount += 1;
          const id = `call_legacy_${legacyCallCount}`;
          legacyCallIds.set(message.function_call.name, id);
          content.push({ type: 'tool-call', id, name: message.function_call.name, arguments: message.function_call.arguments });
        }
        return withName({ role: 'assistant', content }, message.name);
      }
      case 'tool': {
        const parts = decodeContent(message.content, param);
        return { role: 'tool', content: [{ type: 'tool-result', callId: message.tool_call_id, content: toolResultContent(parts) }] };
      }
      case 'function': {
        const callId = legacyCallIds.get(message.name) ?? `call_legacy_${message.name}`;
        return {
          role: 'tool',
          content: [{ type: 'tool-result', callId, name: message.name, content: message.content ?? '' }],
        };
      }
    }
  });
}

function decodeToolCall(
  call: { id: string; type: 'function'; function: { name: string; arguments: string } } | { id: string; type: 'custom'; custom: { name: string; input: string } },
): ToolCallPart {
  if (call.type === 'custom') return { type: 'tool-call', id: call.id, name: call.custom.name, arguments: call.custom.input, kind: 'custom' };
  return { type: 'tool-call', id: call.id, name: call.function.name, arguments: call.function.arguments };
}

/** A lone text part is kept as a plain string, which is how most tool results are sent. */
function toolResultContent(parts: ReturnType<typeof decodeContent>): string | ReturnType<typeof decodeContent> {
  if (parts.length === 0) return '';
  const only = parts[0];
  if (parts.length === 1 && only !== undefined && only.type === 'text') return only.text;
  return parts;
}

function withName(message: IrMessage, name: string | undefined): IrMessage {
  return name === undefined ? message : { ...message, name };
}
