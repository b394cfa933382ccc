import { GatewayError } from '../../errors/gateway-error.js';
import type { IrRequest } from '../../ir/index.js';
import { isRecord } from '../../json/json-value.js';
import type { MessagesOutputConfig, MessagesRequestBody } from '../../wire/messages/index.js';
import type { ForwardedHeaders, UpstreamHttpRequest, UpstreamTarget } from '../provider-adapter.js';
import { encodeConversation } from './encode-messages.js';
import { encodeThinking } from './encode-thinking.js';
import { encodeToolChoice, encodeTools } from './encode-tools.js';
import { anthropicHeaders, messagesUrl } from './upstream-headers.js';

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Request fields a Messages client sent that the IR has no neutral slot for (context_management,
 * service_tier, container, …). Values the IR produced win; where both sides are objects
 * (output_config, thinking) they are merged so neither loses its keys.
 */
function mergeExtensions(body: Record<string, unknown>, extras: Readonly<Record<string, unknown>> | undefined): void {
  if (extras === undefined) return;
  for (const [key, value] of Object.entries(extras)) {
    const own = body[key];
    if (own === undefined) body[key] = value;
    else if (isRecord(own) && isRecord(value)) body[key] = { ...value, ...own };
  }
}

/** The Messages body for an IR request, addressed to the target's upstream model. */
export function buildMessagesBody(request: IrRequest, target: UpstreamTarget): MessagesRequestBody {
  if (request.params.choiceCount !== undefined && request.params.choiceCount > 1) {
    throw new GatewayError('unsupported_parameter', 'This model returns one choice per request.', { param: 'n' });
  }
  const conversation = encodeConversation(request.messages);
  const settings = encodeThinking(request);
  const thinking = settings.thinking;
  const tools = encodeTools(request.tools);
  const toolChoice = tools.length > 0 ? encodeToolChoice(request) : undefined;
  // seed and frequency/presence penalties have no Messages counterpart and are not sent.
  const params = request.params;

  // With thinking on, Messages rejects any temperature but 1 and any top_k, and takes top_p only
  // in 0.95–1; clients translated from other formats often send sampling defaults, so those are
  // left to the model rather than failing the request.
  const thinkingOn = thinking !== undefined;
  const sampling: Record<string, number> = {};
  if (params.temperature !== undefined && !thinkingOn) sampling['temperature'] = clamp(params.temperature, 0, 1);
  if (params.topP !== undefined) sampling['top_p'] = thinkingOn ? clamp(params.topP, 0.95, 1) : params.topP;
  if (params.topK !== undefined && !thinkingOn) sampling['top_k'] = params.topK;

  const outputConfig: MessagesOutputConfig = {
    ...(settings.effort === undefined ? {} : { effort: settings.effort }),
    // json_object has no Messages equivalent; such prompts already ask for JSON, so it is not sent.
    ...(request.responseFormat?.type === 'json_schema'
      ? { format: { type: 'json_schema', schema: request.responseFormat.schema } }
      : {}),
  };

  const body: Record<string, unknown> = {
    model: target.model,
    max_tokens: settings.maxTokens,
    ...(conversation.system.length > 0 ? { system: conversation.system } : {}),
    messages: conversation.messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
    ...(thinking === undefined ? {} : { thinking }),
    ...(Object.keys(outputConfig).length > 0 ? { output_config: outputConfig } : {}),
    ...sampling,
    ...(params.stop !== undefined && params.stop.length > 0 ? { stop_sequences: params.stop } : {}),
    ...(request.user === undefined ? {} : { metadata: { user_id: request.user } }),
    stream: request.stream,
  };
  // Provider-keyed extras first, then the Messages client's own fields.
  mergeExtensions(body, request.extensions['anthropic']);
  mergeExtensions(body, request.extensions['messages']);
  return { ...body, model: target.model, max_tokens: settings.maxTokens, messages: conversation.messages };
}

export function buildAnthropicRequest(
  request: IrRequest,
  target: UpstreamTarget,
  forwarded: ForwardedHeaders,
): UpstreamHttpRequest {
  return {
    url: messagesUrl(target),
    headers: anthropicHeaders(target, forwarded),
    body: JSON.stringify(buildMessagesBody(request, target)),
  };
}
