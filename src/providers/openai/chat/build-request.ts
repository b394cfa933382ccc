import type { IrRequest } from '../../../ir/index.js';
import { isRecord } from '../../../json/json-value.js';
import type { ProviderKind, UpstreamHttpRequest, UpstreamTarget } from '../../provider-adapter.js';
import { encodeMessages } from './encode-messages.js';
import { encodeResponseFormat, encodeToolChoice, encodeTools } from './encode-tools.js';
import { openAIUpstreamHeaders } from '../shared/upstream-headers.js';

/** The chat request body for an IR request, sent to `target.model`. */
export function buildChatBody(request: IrRequest, target: UpstreamTarget, kind: ProviderKind): Record<string, unknown> {
  const extensions = request.extensions['chat'] ?? {};
  // Fields a chat client sent that the IR does not model go back first; modeled fields win.
  const { stream_options: clientStreamOptions, tool_choice: rawToolChoice, ...passthroughFields } = extensions;
  const body: Record<string, unknown> = { ...passthroughFields, model: target.model, messages: encodeMessages(request.messages) };

  const tools = request.tools ? encodeTools(request.tools) : [];
  if (tools.length > 0) {
    body['tools'] = tools;
    // `allowed_tools` has no IR form; the client's original is used when it sent one.
    if (isRecord(rawToolChoice)) body['tool_choice'] = rawToolChoice;
    else if (request.toolChoice) body['tool_choice'] = encodeToolChoice(request.toolChoice, request.tools ?? []);
    if (request.parallelToolCalls !== undefined) body['parallel_tool_calls'] = request.parallelToolCalls;
  } else if (request.toolChoice?.type === 'none') {
    body['tool_choice'] = 'none';
  }

  if (request.responseFormat) body['response_format'] = encodeResponseFormat(request.responseFormat);
  const params = request.params;
  if (params.stop) body['stop'] = params.stop;
  if (params.temperature !== undefined) body['temperature'] = params.temperature;
  if (params.topP !== undefined) body['top_p'] = params.topP;
  if (params.frequencyPenalty !== undefined) body['frequency_penalty'] = params.frequencyPenalty;
  if (params.presencePenalty !== undefined) body['presence_penalty'] = params.presencePenalty;
  if (params.seed !== undefined) body['seed'] = params.seed;
  if (params.choiceCount !== undefined) body['n'] = params.choiceCount;
  if (params.maxOutputTokens !== undefined) {
    // OpenAI reasoning models reject the deprecated `max_tokens`; many compat servers
    // (older vLLM, llama.cpp, DeepSeek) know only `max_tokens`.
    body[kind === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = params.maxOutputTokens;
  }
  if (request.reasoning?.effort !== undefined) body['reasoning_effort'] = request.reasoning.effort;
  if (request.user !== undefined) body['user'] = request.user;
  if (request.metadata !== undefined) body['metadata'] = request.metadata;
  if (request.stream) {
    body['stream'] = true;
    // The gateway meters every call, so usage is always requested; the client's other options stay.
    body['stream_options'] = { ...(isRecord(clientStreamOptions) ? clientStreamOptions : {}), include_usage: true };
  }
  return body;
}

export function buildChatRequest(request: IrRequest, target: UpstreamTarget, kind: ProviderKind): UpstreamHttpRequest {
  return {
    url: `${target.baseUrl}/chat/completions`,
    headers: openAIUpstreamHeaders(target),
    body: JSON.stringify(buildChatBody(request, target, kind)),
  };
}
