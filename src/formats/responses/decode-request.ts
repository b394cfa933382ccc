import { GatewayError } from '../../errors/gateway-error.js';
import type { GenerationParams, IrRequest, ReasoningConfig, ResponseFormat } from '../../ir/index.js';
import { isRecord } from '../../json/json-value.js';
import { decodeInput } from './decode-input.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import { refuseForeignOutputCap } from '../validation/foreign-output-cap.js';
import { parseOrThrow } from '../validation/openai-parse-or-throw.js';
import { isPlainResponsesRequest } from './plain-responses-request.js';
import { modeledRequestFields, responsesRequestSchema, type ResponsesRequestInput } from './responses-request-schema.js';

/**
 * Extension key for input items the IR cannot hold (`item_reference`s, hosted tool calls echoed
 * back), by input position. Kept apart from `extensions.responses`, which holds only real
 * top-level request fields that a Responses upstream is sent back.
 */
export const responsesInputExtensionKey = 'responses-input';

/** Validates a parsed Responses request body and turns it into the IR. */
export function decodeResponsesRequest(body: unknown): IrRequest {
  if (!isRecord(body)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
  }
  refuseForeignOutputCap(body, 'responses', '/v1/responses');
  // The common shapes are checked by hand; the schema sees the rest and words every refusal.
  const input = isPlainResponsesRequest(body) ? body : parseOrThrow(responsesRequestSchema, body);
  const decodedInput = decodeInput(input.input, input.instructions);
  const tools = input.tools ? decodeTools(input.tools) : undefined;
  const reasoning = decodeReasoning(input);
  const responseFormat = input.text?.format ? decodeResponseFormat(input.text.format) : undefined;
  const extensions: Record<string, Readonly<Record<string, unknown>>> = { responses: unmodeledFields(body, input) };
  if (decodedInput.itemReferences.length > 0 || decodedInput.otherItems.length > 0) {
    extensions[responsesInputExtensionKey] = { itemReferences: decodedInput.itemReferences, otherItems: decodedInput.otherItems };
  }
  return {
    model: input.model,
    messages: decodedInput.messages,
    params: decodeParams(input),
    stream: input.stream === true,
    extensions,
    ...(tools === undefined ? {} : { tools }),
    ...(input.tool_choice ? { toolChoice: decodeToolChoice(input.tool_choice) } : {}),
    ...(typeof input.parallel_tool_calls === 'boolean' ? { parallelToolCalls: input.parallel_tool_calls } : {}),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(typeof input.user === 'string' ? { user: input.user } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
  };
}

function decodeParams(input: ResponsesRequestInput): GenerationParams {
  const params: { -readonly [Key in keyof GenerationParams]: GenerationParams[Key] } = {};
  if (typeof input.max_output_tokens === 'number') params.maxOutputTokens = input.max_output_tokens;
  if (typeof input.temperature === 'number') params.temperature = input.temperature;
  if (typeof input.top_p === 'number') params.topP = input.top_p;
  return params;
}

function decodeReasoning(input: ResponsesRequestInput): ReasoningConfig | undefined {
  const reasoning = input.reasoning;
  if (!reasoning) return undefined;
  const config: { -readonly [Key in keyof ReasoningConfig]: ReasoningConfig[Key] } = {};
  if (reasoning.effort) {
    config.effort = reasoning.effort;
    // `none` is how Responses turns reasoning off on models that allow it.
    if (reasoning.effort === 'none') config.enabled = false;
  }
  if (reasoning.summary) config.summary = reasoning.summary;
  return Object.keys(config).length > 0 ? config : undefined;
}

function decodeResponseFormat(format: NonNullable<NonNullable<ResponsesRequestInput['text']>['format']>): ResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  return {
    type: 'json_schema',
    name: format.name,
    schema: format.schema,
    ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
    ...(format.description ? { description: format.description } : {}),
  };
}

/**
 * Everything the IR does not model, so a Responses upstream gets it back unchanged: unknown
 * top-level fields, the unmodeled keys of `text` and `reasoning` (e.g. `text.verbosity`), and a
 * `tool_choice` the IR can only approximate (allowed_tools, hosted tools with options).
 */
function unmodeledFields(body: Record<string, unknown>, input: ResponsesRequestInput): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!modeledRequestFields.has(key)) extra[key] = value;
  }
  const text = rest(body['text'], ['format']);
  if (text !== undefined) extra['text'] = text;
  const reasoning = rest(body['reasoning'], ['effort', 'summary']);
  if (reasoning !== undefined) extra['reasoning'] = reasoning;
  const choice = input.tool_choice;
  if (isRecord(choice) && choice.type !== 'function' && choice.type !== 'custom') extra['tool_choice'] = body['tool_choice'];
  return extra;
}

function rest(value: unknown, modeled: readonly string[]): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const remaining = Object.fromEntries(Object.entries(value).filter(([key]) => !modeled.includes(key)));
  return Object.keys(remaining).length > 0 ? remaining : undefined;
}
