import { GatewayError } from '../../errors/gateway-error.js';
import type { GenerationParams, IrRequest, ResponseFormat } from '../../ir/index.js';
import { isRecord } from '../../json/json-value.js';
import { chatRequestSchema, modeledRequestFields, type ChatRequestInput } from './chat-request-schema.js';
import { decodeMessages } from './decode-messages.js';
import { isPlainChatRequest } from './plain-chat-request.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import { refuseForeignOutputCap } from '../validation/foreign-output-cap.js';
import { parseOrThrow } from '../validation/openai-parse-or-throw.js';

/** Validates a parsed chat request body and turns it into the IR. */
export function decodeChatRequest(body: unknown): IrRequest {
  if (!isRecord(body)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
  }
  refuseForeignOutputCap(body, 'chat', '/v1/chat/completions');
  // The common shapes are checked by hand; the schema sees the rest and words every refusal.
  const input = isPlainChatRequest(body) ? body : parseOrThrow(chatRequestSchema, body);
  const tools = input.tools ? decodeTools(input.tools) : undefined;
  const request: IrRequest = {
    model: input.model,
    messages: decodeMessages(input.messages),
    params: decodeParams(input),
    stream: input.stream === true,
    extensions: { chat: unmodeledFields(body, input) },
    ...(tools === undefined ? {} : { tools }),
    ...(input.tool_choice ? { toolChoice: decodeToolChoice(input.tool_choice) } : {}),
    ...(typeof input.parallel_tool_calls === 'boolean' ? { parallelToolCalls: input.parallel_tool_calls } : {}),
    ...(input.reasoning_effort ? { reasoning: { effort: input.reasoning_effort } } : {}),
    ...(input.response_format ? { responseFormat: decodeResponseFormat(input.response_format) } : {}),
    ...(typeof input.user === 'string' ? { user: input.user } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
  };
  return request;
}

function decodeParams(input: ChatRequestInput): GenerationParams {
  const params: { -readonly [Key in keyof GenerationParams]: GenerationParams[Key] } = {};
  // `max_completion_tokens` supersedes the deprecated `max_tokens` when a client sends both.
  const maxOutputTokens = input.max_completion_tokens ?? input.max_tokens;
  if (typeof maxOutputTokens === 'number') params.maxOutputTokens = maxOutputTokens;
  if (typeof input.temperature === 'number') params.temperature = input.temperature;
  if (typeof input.top_p === 'number') params.topP = input.top_p;
  const stop = typeof input.stop === 'string' ? [input.stop] : input.stop;
  if (stop && stop.length > 0) params.stop = stop;
  if (typeof input.seed === 'number') params.seed = input.seed;
  if (typeof input.frequency_penalty === 'number') params.frequencyPenalty = input.frequency_penalty;
  if (typeof input.presence_penalty === 'number') params.presencePenalty = input.presence_penalty;
  if (typeof input.n === 'number') params.choiceCount = input.n;
  return params;
}

function decodeResponseFormat(format: NonNullable<ChatRequestInput['response_format']>): ResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const schema = format.json_schema;
  return {
    type: 'json_schema',
    name: schema.name,
    schema: schema.schema ?? {},
    ...(typeof schema.strict === 'boolean' ? { strict: schema.strict } : {}),
    ...(schema.description === undefined ? {} : { description: schema.description }),
  };
}

/** Everything the IR does not model, so a chat upstream gets it back unchanged. */
function unmodeledFields(body: Record<string, unknown>, input: ChatRequestInput): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!modeledRequestFields.has(key)) extra[key] = value;
  }
  if (isRecord(input.tool_choice) && input.tool_choice.type === 'allowed_tools') extra['tool_choice'] = body['tool_choice'];
  return extra;
}
