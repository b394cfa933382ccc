import { asRecord } from '../json/json-value.js';
import type { SimReply } from './plan-reply.js';
import type { EncodeContext, SimEndpoint, SimStreamEvent } from './sim-endpoint.js';
import { extractChat } from './extract-chat.js';

/** OpenAI Chat Completions replies, shaped after the recorded `openai/chat` fixtures. */
export const chatEndpoint: SimEndpoint = {
  family: 'openai',
  extract: (body) => extractChat(body),
  encodeJson: chatCompletion,
  encodeStream: chatChunks,
  headers: (context) => ({ 'x-request-id': `req_${context.identity.tag}` }),
};

const fingerprint = 'fp_sim';

function toolCallId(context: EncodeContext, index: number): string {
  return `call_${context.identity.tag}_${index}`;
}

function chatUsage(reply: SimReply): Record<string, unknown> {
  const { inputTokens, outputTokens, reasoningTokens } = reply.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function chatCompletion(reply: SimReply, context: EncodeContext): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.text?.text ?? null,
    refusal: null,
    annotations: [],
  };
  // OpenAI itself returns no reasoning text; OpenAI-compatible upstreams (DeepSeek, xAI) use this field.
  if (reply.reasoning !== null) message.reasoning_content = reply.reasoning.text;
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call, index) => ({
      id: toolCallId(context, index),
      type: 'function',
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  return {
    id: `chatcmpl-${context.identity.tag}`,
    object: 'chat.completion',
    created: context.identity.createdAt,
    model: context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finish }],
    usage: chatUsage(reply),
    service_tier: 'default',
    system_fingerprint: fingerprint,
  };
}

function chatChunks(reply: SimReply, context: EncodeContext): SimStreamEvent[] {
  const includeUsage = asRecord(context.request.stream_options)?.include_usage === true;
  // Every chunk, the usage-only one included, opens with the same fields in this order.
  const header = {
    id: `chatcmpl-${context.identity.tag}`,
    object: 'chat.completion.chunk',
    created: context.identity.createdAt,
    model: context.model,
    service_tier: 'default',
    system_fingerprint: fingerprint,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): SimStreamEvent => ({
    data: {
      ...header,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    },
  });

  const events: SimStreamEvent[] = [];
  events.push(chunk({ role: 'assistant', content: reply.text === null ? null : '', refusal: null }));
  for (const piece of reply.reasoning?.pieces ?? []) events.push(chunk({ reasoning_content: piece }));
  for (const piece of reply.text?.pieces ?? []) events.push(chunk({ content: piece }));
  reply.toolCalls.forEach((call, index) => {
    events.push(chunk({
      tool_calls: [{ index, id: toolCallId(context, index), type: 'function', function: { name: call.name, arguments: '' } }],
    }));
    for (const fragment of call.fragments) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  events.push(chunk({}, reply.finish));
  if (includeUsage) {
    events.push({ data: { ...header, choices: [], usage: chatUsage(reply) } });
  }
  events.push({ data: '[DONE]' });
  return events;
}
