import { GatewayError } from '../../../errors/gateway-error.js';
import type { IrRequest, ReasoningConfig } from '../../../ir/index.js';
import { isRecord } from '../../../json/json-value.js';
import { encodeResponsesTextFormat, encodeResponsesToolChoice, encodeResponsesTools } from '../../../wire/responses/responses-tools.js';
import type { UpstreamHttpRequest, UpstreamTarget } from '../../provider-adapter.js';
import { encodeInput } from './encode-input.js';
import { openAIUpstreamHeaders } from '../shared/upstream-headers.js';

const encryptedReasoning = 'reasoning.encrypted_content';

/**
 * The Responses body for an IR request, sent to `target.model`. Fields a Responses client sent that
 * the IR does not model (`extensions.responses`) go back first; modeled fields win. The gateway
 * keeps nothing upstream: `store:false` plus `include: ["reasoning.encrypted_content"]` make the
 * reasoning come back as an opaque blob that the next turn sends again.
 */
export function buildResponsesBody(request: IrRequest, target: UpstreamTarget): Record<string, unknown> {
  const params = request.params;
  if (params.choiceCount !== undefined && params.choiceCount > 1) {
    throw new GatewayError('unsupported_parameter', 'This model returns one choice per request.', { param: 'n' });
  }
  const extra = request.extensions['responses'] ?? {};
  const { tool_choice: rawToolChoice, text: extraText, reasoning: extraReasoning, include: extraInclude, ...passthroughFields } = extra;
  const { instructions, input } = encodeInput(request.messages, request.tools);
  const body: Record<string, unknown> = { ...passthroughFields, model: target.model, input };
  if (instructions !== undefined) body['instructions'] = instructions;

  const tools = request.tools ? encodeResponsesTools(request.tools) : [];
  if (tools.length > 0) {
    body['tools'] = tools;
    // `allowed_tools` and hosted choices with options have no IR form; the client's original is used.
    if (isRecord(rawToolChoice)) body['tool_choice'] = rawToolChoice;
    else if (request.toolChoice) body['tool_choice'] = encodeResponsesToolChoice(request.toolChoice, request.tools);
    if (request.parallelToolCalls !== undefined) body['parallel_tool_calls'] = request.parallelToolCalls;
  } else if (request.toolChoice?.type === 'none') {
    body['tool_choice'] = 'none';
  }

  const reasoning = { ...(isRecord(extraReasoning) ? extraReasoning : {}), ...encodeReasoning(request.reasoning) };
  if (Object.keys(reasoning).length > 0) body['reasoning'] = reasoning;
  const text = { ...(isRecord(extraText) ? extraText : {}), ...(request.responseFormat ? { format: encodeResponsesTextFormat(request.responseFormat) } : {}) };
  if (Object.keys(text).length > 0) body['text'] = text;

  // stop, seed, top_k and the penalties have no Responses counterpart and are not sent.
  if (params.maxOutputTokens !== undefined) body['max_output_tokens'] = params.maxOutputTokens;
  if (params.temperature !== undefined) body['temperature'] = params.temperature;
  if (params.topP !== undefined) body['top_p'] = params.topP;
  if (request.user !== undefined) body['user'] = request.user;
  if (request.metadata !== undefined) body['metadata'] = request.metadata;
  body['stream'] = request.stream;
  body['store'] = false;
  const include = Array.isArray(extraInclude) ? extraInclude.filter((entry): entry is string => typeof entry === 'string') : [];
  body['include'] = include.includes(encryptedReasoning) ? include : [...include, encryptedReasoning];
  return body;
}

/**
 * Responses takes an effort only. A thinking budget (Anthropic, Gemini clients) is mapped to the
 * nearest effort; "reasoning off" is sent as the lowest effort every reasoning model accepts.
 */
function encodeReasoning(reasoning: ReasoningConfig | undefined): Record<string, unknown> {
  if (reasoning === undefined) return {};
  const encoded: Record<string, unknown> = {};
  if (reasoning.effort !== undefined) encoded['effort'] = reasoning.effort;
  else if (reasoning.enabled === false) encoded['effort'] = 'minimal';
  else if (reasoning.budgetTokens !== undefined) encoded['effort'] = reasoning.budgetTokens >= 16_000 ? 'high' : reasoning.budgetTokens >= 4_000 ? 'medium' : 'low';
  if (reasoning.summary !== undefined) encoded['summary'] = reasoning.summary;
  return encoded;
}

export function buildResponsesRequest(request: IrRequest, target: UpstreamTarget): UpstreamHttpRequest {
  return {
    url: `${target.baseUrl}/responses`,
    headers: openAIUpstreamHeaders(target),
    body: JSON.stringify(buildResponsesBody(request, target)),
  };
}
