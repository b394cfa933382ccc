import type { IrResponse } from '../../ir/index.js';
import { chatFinishReason } from '../../wire/chat/chat-finish-reason.js';
import { chatUsageFromUsage } from '../../wire/chat/chat-usage.js';
import type { ChatCompletion, ChatResponseMessage, ChatToolCall } from '../../wire/chat/chat-wire-types.js';
import type { EncodeContext } from '../client-format.js';
import { chatCompletionId } from './chat-id.js';

/** The `chat.completion` object as OpenAI returns it. */
export function encodeChatResponse(response: IrResponse, context: EncodeContext): ChatCompletion {
  let text: string | undefined;
  let reasoning: string | undefined;
  const toolCalls: ChatToolCall[] = [];
  for (const part of response.content) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'reasoning') {
      if (part.text !== '') reasoning = (reasoning ?? '') + part.text;
    } else if (part.kind === 'custom') {
      toolCalls.push({ id: part.id, type: 'custom', custom: { name: part.name, input: part.arguments } });
    } else {
      // The IR treats "" as {}; chat clients JSON.parse the arguments, so give them valid JSON.
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments === '' ? '{}' : part.arguments } });
    }
  }
  const message: ChatResponseMessage = {
    role: 'assistant',
    content: text ?? null,
    refusal: null,
    ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    annotations: [],
  };
  return {
    id: chatCompletionId(response.id, context.requestId),
    object: 'chat.completion',
    created: response.created,
    model: context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinishReason(response.finish, toolCalls.length > 0) }],
    usage: chatUsageFromUsage(response.usage),
  };
}
