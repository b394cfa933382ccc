import { GatewayError } from '../../../errors/gateway-error.js';
import { zeroUsage, type BlockKind, type FinishInfo, type IrStreamEvent, type Usage } from '../../../ir/index.js';
import { isRecord, parseJson, readRecord, readString } from '../../../json/json-value.js';
import { parseChatErrorBody } from '../../../wire/chat/chat-error-body.js';
import { finishFromChat } from '../../../wire/chat/chat-finish-reason.js';
import { usageFromChatPayload } from '../../../wire/chat/chat-usage.js';
import type { StreamDecoder } from '../../provider-adapter.js';
import { argumentsText } from './decode-response.js';

interface ToolBlock {
  readonly block: number;
  readonly id: string;
}

/**
 * Chat SSE → IR events. Chat has no block boundaries, so they are inferred: text and reasoning
 * blocks close when another kind of output starts; tool calls get one block per chat `index` and
 * stay open (their fragments may interleave) until the finish chunk. response-end waits for
 * `[DONE]` or the end of the stream, because usage may follow the finish chunk.
 */
export function createChatStreamDecoder(): StreamDecoder {
  let started = false;
  let ended = false;
  let finish: FinishInfo | undefined;
  let usage: Usage | undefined;
  let nextBlock = 0;
  let textBlock: number | undefined;
  let reasoningBlock: number | undefined;
  const toolBlocks = new Map<number, ToolBlock>();
  let sawToolCall = false;
  let refused = false;

  function open(events: IrStreamEvent[], block: BlockKind): number {
    const index = nextBlock;
    nextBlock += 1;
    events.push({ type: 'block-start', index, block });
    return index;
  }

  function closeText(events: IrStreamEvent[]): void {
    if (textBlock !== undefined) events.push({ type: 'block-end', index: textBlock });
    textBlock = undefined;
  }

  function closeReasoning(events: IrStreamEvent[]): void {
    if (reasoningBlock !== undefined) events.push({ type: 'block-end', index: reasoningBlock });
    reasoningBlock = undefined;
  }

  function closeAll(events: IrStreamEvent[]): void {
    closeReasoning(events);
    closeText(events);
    for (const tool of toolBlocks.values()) events.push({ type: 'block-end', index: tool.block });
    toolBlocks.clear();
  }

  function fail(events: IrStreamEvent[], error: GatewayError): IrStreamEvent[] {
    ended = true;
    events.push({ type: 'error', error });
    return events;
  }

  function complete(events: IrStreamEvent[]): IrStreamEvent[] {
    closeAll(events);
    ended = true;
    let info = finish ?? finishFromChat(undefined, sawToolCall);
    if (refused && info.reason === 'stop') info = { ...info, reason: 'refusal' };
    events.push({ type: 'response-end', finish: info, usage: usage ?? zeroUsage });
    return events;
  }

  function appendReasoning(events: IrStreamEvent[], text: string): void {
    if (reasoningBlock === undefined) {
      closeText(events);
      reasoningBlock = open(events, { kind: 'reasoning' });
    }
    events.push({ type: 'block-delta', index: reasoningBlock, delta: { kind: 'reasoning', text } });
  }

  function appendText(events: IrStreamEvent[], text: string): void {
    if (textBlock === undefined) {
      closeReasoning(events);
      textBlock = open(events, { kind: 'text' });
    }
    events.push({ type: 'block-delta', index: textBlock, delta: { kind: 'text', text } });
  }

  function appendToolCall(events: IrStreamEvent[], entry: Record<string, unknown>, position: number): void {
    const index = typeof entry['index'] === 'number' ? entry['index'] : position;
    const definition = readRecord(entry, 'function');
    const custom = readRecord(entry, 'custom');
    const id = readString(entry, 'id');
    let tool = toolBlocks.get(index);
    // A fresh id at a known index is a new call (servers that send every call at index 0).
    if (tool !== undefined && id && id !== tool.id) {
      events.push({ type: 'block-end', index: tool.block });
      tool = undefined;
    }
    if (tool === undefined) {
      closeReasoning(events);
      closeText(events);
      const callId = id || `call_${index}`;
      const name = (definition && readString(definition, 'name')) ?? (custom && readString(custom, 'name')) ?? '';
      const block = open(events, { kind: 'tool-call', id: callId, name, ...(custom && !definition ? { toolKind: 'custom' as const } : {}) });
      tool = { block, id: callId };
      toolBlocks.set(index, tool);
      sawToolCall = true;
    }
    const fragment = argumentsText(definition ? definition['arguments'] : custom?.['input']);
    if (fragment !== '') events.push({ type: 'block-delta', index: tool.block, delta: { kind: 'tool-arguments', text: fragment } });
  }

  function applyChoice(events: IrStreamEvent[], choice: Record<string, unknown>): void {
    const delta = readRecord(choice, 'delta');
    if (delta !== undefined) {
      const reasoning = readString(delta, 'reasoning_content') ?? readString(delta, 'reasoning');
      if (reasoning) appendReasoning(events, reasoning);
      const content = readString(delta, 'content');
      if (content) appendText(events, content);
      const refusal = readString(delta, 'refusal');
      if (refusal) {
        refused = true;
        appendText(events, refusal);
      }
      const toolCalls = delta['tool_calls'];
      if (Array.isArray(toolCalls)) {
        toolCalls.forEach((entry: unknown, position) => {
          if (isRecord(entry)) appendToolCall(events, entry, position);
        });
      }
    }
    const finishReason = readString(choice, 'finish_reason');
    if (finishReason) {
      finish = finishFromChat(finishReason, sawToolCall);
      closeAll(events);
    }
  }

  return {
    push(_eventName: string | undefined, data: string): IrStreamEvent[] {
      if (ended) return [];
      const events: IrStreamEvent[] = [];
      const text = data.trim();
      if (text === '') return events;
      if (text === '[DONE]') {
        if (!started) return fail(events, new GatewayError('upstream_invalid_response', 'The upstream stream ended without a response.'));
        return complete(events);
      }
      const payload = parseJson(text);
      if (!isRecord(payload)) {
        return fail(events, new GatewayError('upstream_invalid_response', 'The upstream sent a stream event that is not a JSON object.'));
      }
      // OpenAI's `{"error": …}`, or vLLM's `{"object":"error","message": …}`.
      if ((payload['error'] !== undefined && payload['error'] !== null) || payload['object'] === 'error') {
        closeAll(events);
        const fields = parseChatErrorBody(payload);
        const message = fields?.message ?? 'The upstream reported an error during the stream.';
        const upstreamType = fields?.type ?? fields?.code;
        return fail(events, new GatewayError('upstream_error', message, upstreamType === undefined ? {} : { upstreamType }));
      }
      const choices = Array.isArray(payload['choices']) ? (payload['choices'] as unknown[]) : [];
      const chunkUsage = usageFromChatPayload(payload);
      // Azure sends a leading chunk with no choices (only prompt_filter_results): nothing to start on.
      if (!started && choices.length === 0 && chunkUsage === undefined) return events;
      if (!started) {
        started = true;
        const created = payload['created'];
        events.push({
          type: 'response-start',
          id: readString(payload, 'id') ?? '',
          model: readString(payload, 'model') ?? '',
          created: typeof created === 'number' && created > 0 ? created : Math.floor(Date.now() / 1000),
        });
      }
      if (chunkUsage !== undefined) {
        usage = chunkUsage;
        events.push({ type: 'usage', usage: chunkUsage });
      }
      // After the finish only usage matters (other choices of an n>1 stream are not translated).
      if (finish !== undefined) return events;
      const choice: unknown = choices.find((entry) => isRecord(entry) && (entry['index'] ?? 0) === 0);
      if (isRecord(choice)) applyChoice(events, choice);
      return events;
    },
    end(): IrStreamEvent[] {
      if (ended) return [];
      const events: IrStreamEvent[] = [];
      if (started && finish !== undefined) return complete(events);
      closeAll(events);
      return fail(events, new GatewayError('upstream_invalid_response', 'The upstream stream ended early.'));
    },
  };
}
