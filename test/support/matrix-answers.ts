import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { FormatName } from '../../src/ir/format-name.js';
import { clientBlobValue } from '../../src/ir/client-blob.js';
import { totalInputTokens, totalOutputTokens, type FinishReason, type IrResponse } from '../../src/ir/index.js';

/** One answer as any client sees it, in the client format's own terms. */
export interface ClientAnswer {
  readonly text: string;
  readonly toolCalls: readonly ClientToolCall[];
  /** Visible reasoning and the opaque value the client would echo (signature / encrypted_content). */
  readonly reasoning: readonly ClientReasoning[];
  /** chat `finish_reason`, Responses `status`, Messages `stop_reason`. */
  readonly finish: string;
  readonly usage: ClientUsage;
}

export interface ClientToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

export interface ClientReasoning {
  readonly text: string;
  /** Absent where the format has no slot for it (chat). */
  readonly blob?: string;
}

/** The format's own usage fields: input/output as it names them, and Messages' cache fields. */
export interface ClientUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

function parseArguments(text: string): unknown {
  return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
}

/**
 * Chat: the SDK's stream helper keeps only the last `reasoning_content` delta (it assigns unknown
 * delta fields instead of appending), so stream callers pass the reasoning they collected from
 * the chunks.
 */
export function answerFromChat(completion: OpenAI.Chat.ChatCompletion, streamedReasoning?: string): ClientAnswer {
  const choice = completion.choices[0];
  const message = choice?.message as (OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string }) | undefined;
  const reasoning = streamedReasoning ?? message?.reasoning_content ?? '';
  return {
    text: message?.content ?? '',
    toolCalls: (message?.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) }] : [],
    ),
    reasoning: reasoning === '' ? [] : [{ text: reasoning }],
    finish: choice?.finish_reason ?? '',
    usage: { input: completion.usage?.prompt_tokens ?? 0, output: completion.usage?.completion_tokens ?? 0 },
  };
}

export function answerFromResponses(response: OpenAI.Responses.Response): ClientAnswer {
  let text = '';
  const toolCalls: ClientToolCall[] = [];
  const reasoning: ClientReasoning[] = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const content of item.content) if (content.type === 'output_text') text += content.text;
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, name: item.name, arguments: parseArguments(item.arguments) });
    } else if (item.type === 'reasoning') {
      const summary = item.summary.map((part) => part.text);
      const content = (item.content ?? []).map((part) => part.text);
      reasoning.push({
        text: summary.length > 0 ? summary.join('\n\n') : content.join(''),
        ...(item.encrypted_content ? { blob: item.encrypted_content } : {}),
      });
    }
  }
  return {
    text,
    toolCalls,
    reasoning,
    finish: response.status ?? '',
    usage: { input: response.usage?.input_tokens ?? 0, output: response.usage?.output_tokens ?? 0 },
  };
}

export function answerFromMessages(message: Anthropic.Message): ClientAnswer {
  let text = '';
  const toolCalls: ClientToolCall[] = [];
  const reasoning: ClientReasoning[] = [];
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: block.input });
    else if (block.type === 'thinking') reasoning.push({ text: block.thinking, blob: block.signature });
    else if (block.type === 'redacted_thinking') reasoning.push({ text: '', blob: block.data });
  }
  return {
    text,
    toolCalls,
    reasoning,
    finish: message.stop_reason ?? '',
    usage: {
      input: message.usage.input_tokens,
      output: message.usage.output_tokens,
      cacheRead: message.usage.cache_read_input_tokens ?? 0,
      cacheWrite: message.usage.cache_creation_input_tokens ?? 0,
    },
  };
}

const chatFinish: Partial<Record<FinishReason, string>> = { stop: 'stop', 'stop-sequence': 'stop', length: 'length', 'tool-calls': 'tool_calls', 'content-filter': 'content_filter' };
const messagesFinish: Partial<Record<FinishReason, string>> = { stop: 'end_turn', 'stop-sequence': 'stop_sequence', length: 'max_tokens', 'tool-calls': 'tool_use', refusal: 'refusal', pause: 'pause_turn' };

/** The finish value a client of `format` should see for the decoded answer. */
export function expectedFinish(format: FormatName, response: IrResponse): string {
  const hasCalls = response.content.some((part) => part.type === 'tool-call');
  switch (format) {
    case 'chat':
      return hasCalls ? 'tool_calls' : chatFinish[response.finish.reason] ?? 'stop';
    case 'messages':
      return hasCalls ? 'tool_use' : messagesFinish[response.finish.reason] ?? 'end_turn';
    case 'responses':
      return response.finish.reason === 'length' || response.finish.reason === 'content-filter' ? 'incomplete' : 'completed';
  }
}

/** Usage in the format's convention: OpenAI formats count cache and reasoning inside their totals. */
export function expectedUsage(format: FormatName, response: IrResponse): ClientUsage {
  const usage = response.usage;
  if (format !== 'messages') return { input: totalInputTokens(usage), output: totalOutputTokens(usage) };
  return { input: usage.inputUncached, output: totalOutputTokens(usage), cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite };
}

/**
 * Reasoning as the format shows it: chat one text without blob, the others one entry per part,
 * plus, right before a tool call signed by another provider (Gemini), a text-less entry carrying
 * that call's tagged blob (the formats have no slot for it on the call). Messages tags carry the
 * OpenAI reasoning item id, which a thinking block has no slot for either.
 */
export function expectedReasoning(format: FormatName, response: IrResponse): ClientReasoning[] {
  const parts = response.content.flatMap((part) => (part.type === 'reasoning' ? [part] : []));
  if (format === 'chat') {
    const text = parts.map((part) => part.text).join('');
    return text === '' ? [] : [{ text }];
  }
  const native = format === 'messages' ? 'anthropic' : 'openai';
  return response.content.flatMap((part): ClientReasoning[] => {
    if (part.type === 'tool-call') {
      return part.blob === undefined || part.blob.provider === native ? [] : [{ text: '', blob: clientBlobValue(part.blob, native) }];
    }
    if (part.type !== 'reasoning' || (part.text === '' && part.blob === undefined)) return [];
    const itemId = format === 'messages' ? part.itemId : undefined;
    const blob = part.blob === undefined ? (format === 'messages' ? '' : undefined) : clientBlobValue(part.blob, native, part.redacted === true, itemId);
    if (part.redacted === true && part.blob?.provider === 'anthropic' && format === 'messages') return [{ text: '', blob: part.blob.value }];
    return [{ text: part.text, ...(blob === undefined ? {} : { blob }) }];
  });
}

/** Everything a client of `format` should see for the decoded answer (usage: see expectedUsage). */
export function expectedAnswer(format: FormatName, response: IrResponse): ClientAnswer {
  return {
    text: response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    toolCalls: response.content.flatMap((part) =>
      part.type === 'tool-call' ? [{ id: part.id, name: part.name, arguments: parseArguments(part.arguments) }] : [],
    ),
    reasoning: expectedReasoning(format, response),
    finish: expectedFinish(format, response),
    usage: expectedUsage(format, response),
  };
}
