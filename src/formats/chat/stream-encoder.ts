import { toGatewayError } from '../../errors/gateway-error.js';
import type { FinishInfo, IrStreamEvent, Usage } from '../../ir/index.js';
import { isEmptyUsage, zeroUsage } from '../../ir/index.js';
import { isRecord } from '../../json/json-value.js';
import { chatFinishReason } from '../../wire/chat/chat-finish-reason.js';
import { chatUsageFromUsage } from '../../wire/chat/chat-usage.js';
import type { ChatChunkDelta, ChatCompletionChunk } from '../../wire/chat/chat-wire-types.js';
import type { EncodeContext, StreamEncoder } from '../client-format.js';
import { chatCompletionId } from './chat-id.js';
import { encodeOpenAIStreamError } from './encode-error.js';

/** Whether the chat client asked for the trailing usage chunk (`stream_options.include_usage`). */
export function wantsStreamUsage(context: EncodeContext): boolean {
  const options = context.request.extensions['chat']?.['stream_options'];
  return isRecord(options) && options['include_usage'] === true;
}

interface ToolSlot {
  readonly toolIndex: number;
  readonly custom: boolean;
}

/** IR stream events → `chat.completion.chunk` SSE events, ending with `data: [DONE]`. */
export function createChatStreamEncoder(context: EncodeContext): StreamEncoder {
  const includeUsage = wantsStreamUsage(context);
  let id = chatCompletionId('', context.requestId);
  let created = Math.floor(Date.now() / 1000);
  let started = false;
  let finished = false;
  let usage: Usage = zeroUsage;
  // IR block indexes count every block; chat numbers tool calls alone, from 0.
  const toolSlots = new Map<number, ToolSlot>();
  let nextToolIndex = 0;

  function chunk(delta: ChatChunkDelta, finishReason: string | null = null): string {
    const body: ChatCompletionChunk = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: context.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    };
    return `data: ${JSON.stringify(body)}\n\n`;
  }

  /** The first chunk must name the role: the SDK's stream helper rejects a choice without one. */
  function start(upstreamId: string, upstreamCreated: number): string {
    if (started) return '';
    started = true;
    id = chatCompletionId(upstreamId, context.requestId);
    created = upstreamCreated;
    return chunk({ role: 'assistant', content: '' });
  }

  function finish(info: FinishInfo, finalUsage: Usage): string {
    finished = true;
    let text = start('', created) + chunk({}, chatFinishReason(info, toolSlots.size > 0));
    if (includeUsage) {
      const usageChunk: ChatCompletionChunk = {
        id,
        object: 'chat.completion.chunk',
        created,
        model: context.model,
        choices: [],
        usage: chatUsageFromUsage(finalUsage),
      };
      text += `data: ${JSON.stringify(usageChunk)}\n\n`;
    }
    return `${text}data: [DONE]\n\n`;
  }

  return {
    encode(event: IrStreamEvent): string {
      if (finished) return '';
      switch (event.type) {
        case 'response-start':
          if (event.usage) usage = event.usage;
          return start(event.id, event.created);
        case 'block-start': {
          const prefix = start('', created);
          if (event.block.kind !== 'tool-call') return prefix;
          const slot: ToolSlot = { toolIndex: nextToolIndex, custom: event.block.toolKind === 'custom' };
          nextToolIndex += 1;
          toolSlots.set(event.index, slot);
          const call = slot.custom
            ? { index: slot.toolIndex, id: event.block.id, type: 'custom' as const, custom: { name: event.block.name, input: '' } }
            : { index: slot.toolIndex, id: event.block.id, type: 'function' as const, function: { name: event.block.name, arguments: '' } };
          return prefix + chunk({ tool_calls: [call] });
        }
        case 'block-delta': {
          const prefix = start('', created);
          if (event.delta.text === '') return prefix;
          if (event.delta.kind === 'text') return prefix + chunk({ content: event.delta.text });
          if (event.delta.kind === 'reasoning') return prefix + chunk({ reasoning_content: event.delta.text });
          const slot = toolSlots.get(event.index);
          if (slot === undefined) return prefix;
          const call = slot.custom
            ? { index: slot.toolIndex, custom: { input: event.delta.text } }
            : { index: slot.toolIndex, function: { arguments: event.delta.text } };
          return prefix + chunk({ tool_calls: [call] });
        }
        case 'block-end':
          return '';
        case 'usage':
          usage = event.usage;
          return '';
        case 'response-end':
          // Some upstreams report usage only in a usage event; keep it when the end carries none.
          return finish(event.finish, isEmptyUsage(event.usage) ? usage : event.usage);
        case 'error':
          finished = true;
          return encodeOpenAIStreamError(toGatewayError(event.error), context.requestId);
      }
    },
    keepAlive(): string {
      return ': keep-alive\n\n';
    },
  };
}
