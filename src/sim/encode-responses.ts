import type { JsonRecord } from '../json/json-value.js';
import { asArray, asNumber, asRecord, asString } from '../json/json-value.js';
import { extractResponses } from './extract-responses.js';
import type { SimReply } from './plan-reply.js';
import type { EncodeContext, SimEndpoint, SimStreamEvent } from './sim-endpoint.js';

/** OpenAI Responses replies, shaped after the recorded `openai/responses` fixtures. */
export const responsesEndpoint: SimEndpoint = {
  family: 'openai',
  extract: (body) => extractResponses(body),
  encodeJson: (reply, context) => responseObject(context, finalStatus(reply), outputItems(reply, context), reply),
  encodeStream: responseEvents,
  headers: (context) => ({ 'x-request-id': `req_${context.identity.tag}` }),
};

type OutputItem = JsonRecord & { readonly id: string; readonly type: string };

function finalStatus(reply: SimReply): 'completed' | 'incomplete' {
  return reply.finish === 'length' ? 'incomplete' : 'completed';
}

/** The finished output items, in output order: reasoning, message, function calls. */
function outputItems(reply: SimReply, context: EncodeContext): OutputItem[] {
  const tag = context.identity.tag;
  const items: OutputItem[] = [];
  if (reply.reasoning !== null) {
    items.push({
      id: `rs_${tag}_${items.length}`,
      type: 'reasoning',
      encrypted_content: reply.reasoning.signature,
      summary: [{ type: 'summary_text', text: reply.reasoning.text }],
    });
  }
  if (reply.text !== null) {
    items.push({
      id: `msg_${tag}_${items.length}`,
      type: 'message',
      status: finalStatus(reply),
      content: [textPart(reply.text.text)],
      role: 'assistant',
    });
  }
  for (const call of reply.toolCalls) {
    const index = items.length;
    items.push({
      id: `fc_${tag}_${index}`,
      type: 'function_call',
      status: 'completed',
      arguments: call.argumentsJson,
      call_id: `call_${tag}_${index}`,
      name: call.name,
    });
  }
  return items;
}

function textPart(text: string): JsonRecord {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function responseObject(
  context: EncodeContext,
  status: 'in_progress' | 'completed' | 'incomplete',
  output: readonly OutputItem[],
  reply: SimReply | null,
): JsonRecord {
  const request = context.request;
  const reasoning = asRecord(request.reasoning);
  const usage = reply === null ? null : {
    input_tokens: reply.usage.inputTokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: reply.usage.cacheWriteTokens },
    output_tokens: reply.usage.outputTokens,
    output_tokens_details: { reasoning_tokens: reply.usage.reasoningTokens },
    total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
  };
  return {
    id: `resp_${context.identity.tag}`,
    object: 'response',
    created_at: context.identity.createdAt,
    status,
    background: false,
    completed_at: status === 'in_progress' ? null : context.identity.createdAt + 1,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: asString(request.instructions) ?? null,
    max_output_tokens: asNumber(request.max_output_tokens) ?? null,
    max_tool_calls: null,
    model: context.model,
    output,
    parallel_tool_calls: request.parallel_tool_calls !== false,
    previous_response_id: asString(request.previous_response_id) ?? null,
    prompt_cache_key: null,
    reasoning: { effort: asString(reasoning?.effort) ?? null, summary: asString(reasoning?.summary) ?? null },
    safety_identifier: null,
    service_tier: 'default',
    store: request.store !== false,
    temperature: asNumber(request.temperature) ?? 1,
    text: { format: { type: 'text' }, verbosity: 'medium', ...asRecord(request.text) },
    tool_choice: request.tool_choice ?? 'auto',
    tools: asArray(request.tools),
    top_logprobs: 0,
    top_p: asNumber(request.top_p) ?? 1,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: asRecord(request.metadata) ?? {},
  };
}

function responseEvents(reply: SimReply, context: EncodeContext): SimStreamEvent[] {
  const events: SimStreamEvent[] = [];
  const emit = (type: string, fields: JsonRecord): void => {
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields } });
  };
  emit('response.created', { response: responseObject(context, 'in_progress', [], null) });
  emit('response.in_progress', { response: responseObject(context, 'in_progress', [], null) });

  const items = outputItems(reply, context);
  const firstCallIndex = items.findIndex((item) => item.type === 'function_call');
  items.forEach((item, outputIndex) => {
    const base = { item_id: item.id, output_index: outputIndex };
    if (item.type === 'reasoning' && reply.reasoning !== null) {
      const summaryPart = { type: 'summary_text', text: reply.reasoning.text };
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
      emit('response.reasoning_summary_part.added', { ...base, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const piece of reply.reasoning.pieces) {
        emit('response.reasoning_summary_text.delta', { ...base, summary_index: 0, delta: piece });
      }
      emit('response.reasoning_summary_text.done', { ...base, summary_index: 0, text: reply.reasoning.text });
      emit('response.reasoning_summary_part.done', { ...base, summary_index: 0, part: summaryPart });
    } else if (item.type === 'message' && reply.text !== null) {
      const contentBase = { ...base, content_index: 0 };
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      emit('response.content_part.added', { ...contentBase, part: textPart('') });
      for (const piece of reply.text.pieces) {
        emit('response.output_text.delta', { ...contentBase, delta: piece, logprobs: [] });
      }
      emit('response.output_text.done', { ...contentBase, text: reply.text.text, logprobs: [] });
      emit('response.content_part.done', { ...contentBase, part: textPart(reply.text.text) });
    } else if (item.type === 'function_call') {
      const call = reply.toolCalls[outputIndex - firstCallIndex];
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const fragment of call?.fragments ?? []) {
        emit('response.function_call_arguments.delta', { ...base, delta: fragment });
      }
      emit('response.function_call_arguments.done', { ...base, arguments: item.arguments });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });

  const status = finalStatus(reply);
  emit(status === 'completed' ? 'response.completed' : 'response.incomplete', {
    response: responseObject(context, status, items, reply),
  });
  return events;
}
