import type { JsonRecord } from '../json/json-value.js';
import { extractMessages } from './extract-messages.js';
import type { SimReply } from './plan-reply.js';
import type { EncodeContext, SimEndpoint, SimStreamEvent } from './sim-endpoint.js';

/** Anthropic Messages replies, shaped after the recorded `anthropic/messages` fixtures. */
export const messagesEndpoint: SimEndpoint = {
  family: 'anthropic',
  extract: (body) => extractMessages(body),
  encodeJson: message,
  encodeStream: messageEvents,
  headers: (context) => ({ 'request-id': `req_${context.identity.tag}` }),
};

const stopReasons: Record<SimReply['finish'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
};

function toolUseId(context: EncodeContext, index: number): string {
  return `toolu_${context.identity.tag}_${index}`;
}

/** Anthropic's input_tokens leaves out cache writes, which it states apart (all 5-minute ones here). */
function usage(reply: SimReply, outputTokens: number): JsonRecord {
  const { inputTokens, cacheWriteTokens } = reply.usage;
  return {
    input_tokens: inputTokens - cacheWriteTokens,
    cache_creation_input_tokens: cacheWriteTokens,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: cacheWriteTokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

function contentBlocks(reply: SimReply, context: EncodeContext): JsonRecord[] {
  const blocks: JsonRecord[] = [];
  if (reply.reasoning !== null) {
    blocks.push({ type: 'thinking', thinking: reply.reasoning.text, signature: reply.reasoning.signature });
  }
  if (reply.text !== null) blocks.push({ type: 'text', text: reply.text.text });
  for (const call of reply.toolCalls) {
    blocks.push({ type: 'tool_use', id: toolUseId(context, blocks.length), name: call.name, input: call.arguments });
  }
  return blocks;
}

function message(reply: SimReply, context: EncodeContext): unknown {
  return {
    model: context.model,
    id: `msg_${context.identity.tag}`,
    type: 'message',
    role: 'assistant',
    content: contentBlocks(reply, context),
    stop_reason: stopReasons[reply.finish],
    stop_sequence: null,
    usage: usage(reply, reply.usage.outputTokens),
  };
}

function messageEvents(reply: SimReply, context: EncodeContext): SimStreamEvent[] {
  const events: SimStreamEvent[] = [];
  const emit = (type: string, fields: JsonRecord = {}): void => {
    events.push({ event: type, data: { type, ...fields } });
  };
  emit('message_start', {
    message: {
      model: context.model,
      id: `msg_${context.identity.tag}`,
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(reply, 1),
    },
  });

  let index = 0;
  const block = (start: JsonRecord, deltas: readonly JsonRecord[]): void => {
    emit('content_block_start', { index, content_block: start });
    // Real streams interleave keep-alive pings; one after the first block start keeps clients honest.
    if (index === 0) emit('ping');
    for (const delta of deltas) emit('content_block_delta', { index, delta });
    emit('content_block_stop', { index });
    index += 1;
  };

  if (reply.reasoning !== null) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...reply.reasoning.pieces.map((piece) => ({ type: 'thinking_delta', thinking: piece })),
      { type: 'signature_delta', signature: reply.reasoning.signature },
    ]);
  }
  if (reply.text !== null) {
    block({ type: 'text', text: '' }, reply.text.pieces.map((piece) => ({ type: 'text_delta', text: piece })));
  }
  for (const call of reply.toolCalls) {
    block(
      { type: 'tool_use', id: toolUseId(context, index), name: call.name, input: {} },
      call.fragments.map((fragment) => ({ type: 'input_json_delta', partial_json: fragment })),
    );
  }

  emit('message_delta', {
    delta: { stop_reason: stopReasons[reply.finish], stop_sequence: null },
    usage: {
      input_tokens: reply.usage.inputTokens - reply.usage.cacheWriteTokens,
      cache_creation_input_tokens: reply.usage.cacheWriteTokens,
      cache_read_input_tokens: 0,
      output_tokens: reply.usage.outputTokens,
    },
  });
  emit('message_stop');
  return events;
}
