import { GatewayError } from '../../errors/gateway-error.js';
import type { GenerationParams, IrRequest, ReasoningConfig, ResponseFormat } from '../../ir/index.js';
import { isRecord } from '../../json/json-value.js';
import { decodeMessages, decodeSystem } from './decode-messages.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import {
  countTokensRequestSchema,
  messagesRequestSchema,
  modeledRequestFields,
  type MessagesRequestInput,
  type ThinkingInput,
} from './messages-request-schema.js';
import { refuseForeignOutputCap } from '../validation/foreign-output-cap.js';
import { parseOrThrow } from './parse-or-throw.js';
import { isPlainMessagesRequest } from './plain-messages-request.js';

/** Schema name the IR needs for structured output; Messages' `output_config.format` has none. */
const structuredOutputName = 'response';

function requireObject(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
  return { ...body };
}

/** Validates a parsed `POST /v1/messages` body and turns it into the IR. */
export function decodeMessagesRequest(body: unknown): IrRequest {
  const record = requireObject(body);
  if (record['max_tokens'] === undefined) {
    // The usual cause is an OpenAI-style body sent to the Messages endpoint.
    throw new GatewayError(
      'missing_field',
      'max_tokens: Field required. Messages requests must set max_tokens; OpenAI-style chat bodies belong on /v1/chat/completions.',
      { param: 'max_tokens' },
    );
  }
  refuseForeignOutputCap(record, 'messages', '/v1/messages');
  // The common shapes are checked by hand; the schema sees the rest and words every refusal.
  const input = isPlainMessagesRequest(record) ? record : parseOrThrow(messagesRequestSchema, record);
  return { ...decodePrompt(input, record), params: decodeParams(input), stream: input.stream === true, ...decodeUser(input) };
}

/**
 * Validates a `POST /v1/messages/count_tokens` body (the prompt fields only, no `max_tokens`) and
 * turns it into the IR, so the prompt can be counted or forwarded like a generation request.
 */
export function decodeMessagesCountTokensRequest(body: unknown): IrRequest {
  const record = requireObject(body);
  const input = parseOrThrow(countTokensRequestSchema, record);
  return { ...decodePrompt(input, record), params: {}, stream: false };
}

type PromptInput = Pick<MessagesRequestInput, 'model' | 'messages' | 'system' | 'tools' | 'tool_choice' | 'thinking' | 'output_config'>;

function decodePrompt(input: PromptInput, body: Record<string, unknown>): Omit<IrRequest, 'params' | 'stream'> {
  const tools = input.tools === undefined ? undefined : decodeTools(input.tools);
  const choice = input.tool_choice === undefined ? undefined : decodeToolChoice(input.tool_choice);
  const reasoning = decodeReasoning(input);
  const format = input.output_config?.format;
  const responseFormat: ResponseFormat | undefined =
    format === null || format === undefined ? undefined : { type: 'json_schema', name: structuredOutputName, schema: format.schema };
  return {
    model: input.model,
    messages: [...decodeSystem(input.system), ...decodeMessages(input.messages)],
    extensions: { messages: unmodeledFields(body) },
    ...(tools === undefined ? {} : { tools }),
    ...(choice === undefined ? {} : choice),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(responseFormat === undefined ? {} : { responseFormat }),
  };
}

function decodeParams(input: MessagesRequestInput): GenerationParams {
  const params: { -readonly [Key in keyof GenerationParams]: GenerationParams[Key] } = { maxOutputTokens: input.max_tokens };
  if (input.temperature !== undefined) params.temperature = input.temperature;
  if (input.top_p !== undefined) params.topP = input.top_p;
  if (input.top_k !== undefined) params.topK = input.top_k;
  if (input.stop_sequences !== undefined && input.stop_sequences.length > 0) params.stop = input.stop_sequences;
  return params;
}

function decodeUser(input: MessagesRequestInput): { user?: string } {
  const userId = input.metadata?.user_id;
  return typeof userId === 'string' ? { user: userId } : {};
}

/** `thinking` and `output_config.effort` as IR reasoning (each field only when the client set it). */
function decodeReasoning(input: PromptInput): ReasoningConfig | undefined {
  const effort = input.output_config?.effort ?? undefined;
  const fromThinking = input.thinking === undefined ? undefined : reasoningFromThinking(input.thinking);
  if (fromThinking === undefined && effort === undefined) return undefined;
  return { ...fromThinking, ...(effort === undefined ? {} : { effort }) };
}

function reasoningFromThinking(thinking: ThinkingInput): ReasoningConfig {
  switch (thinking.type) {
    case 'enabled':
      return { enabled: true, budgetTokens: thinking.budget_tokens };
    case 'adaptive':
      return { adaptive: true };
    case 'disabled':
      return { enabled: false };
  }
}

/**
 * Everything the IR does not model, so an Anthropic upstream gets it back unchanged.
 * - `thinking` is kept whole: its `display` (and any later option) only makes sense beside its
 *   `type`, and the Anthropic adapter merges the IR's own thinking over it key by key.
 * - `metadata` is kept whole: `user_id` is also the IR user, other keys have no IR slot.
 * - `output_config` keeps only what the IR does not model (`effort` and `format` map).
 */
function unmodeledFields(body: Record<string, unknown>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!modeledRequestFields.has(key)) extra[key] = value;
  }
  const outputConfig = body['output_config'];
  if (isRecord(outputConfig)) {
    const rest: Record<string, unknown> = { ...outputConfig };
    delete rest['effort'];
    delete rest['format'];
    if (Object.keys(rest).length > 0) extra['output_config'] = rest;
    else delete extra['output_config'];
  }
  return extra;
}
