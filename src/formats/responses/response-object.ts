import type { IrRequest } from '../../ir/index.js';
import { isRecord, readString } from '../../json/json-value.js';
import { encodeResponsesTextFormat, encodeResponsesToolChoice, encodeResponsesTools } from '../../wire/responses/responses-tools.js';
import type {
  ResponsesErrorObject,
  ResponsesIncompleteDetails,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesStatus,
  ResponsesUsage,
} from '../../wire/responses/responses-wire-types.js';
import type { EncodeContext } from '../client-format.js';

export interface ResponseState {
  readonly id: string;
  readonly createdAt: number;
  readonly status: ResponsesStatus;
  readonly output: ResponsesOutputItem[];
  readonly usage: ResponsesUsage | null;
  readonly error?: ResponsesErrorObject | null;
  readonly incompleteDetails?: ResponsesIncompleteDetails | null;
}

/**
 * The Response object: what happened (`state`) plus the request settings OpenAI echoes back,
 * rebuilt from the IR request and the client's own unmodeled fields.
 */
export function responseObject(state: ResponseState, context: EncodeContext): ResponsesObject {
  const request = context.request;
  const extra = request.extensions['responses'] ?? {};
  const textExtra = isRecord(extra['text']) ? extra['text'] : {};
  return {
    id: state.id,
    object: 'response',
    created_at: state.createdAt,
    status: state.status,
    background: false,
    completed_at: state.status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    error: state.error ?? null,
    incomplete_details: state.incompleteDetails ?? null,
    instructions: instructionsOf(request),
    max_output_tokens: request.params.maxOutputTokens ?? null,
    max_tool_calls: typeof extra['max_tool_calls'] === 'number' ? extra['max_tool_calls'] : null,
    model: context.model,
    output: state.output,
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: readString(extra, 'previous_response_id') ?? null,
    prompt_cache_key: readString(extra, 'prompt_cache_key') ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    safety_identifier: readString(extra, 'safety_identifier') ?? null,
    service_tier: readString(extra, 'service_tier') ?? 'default',
    store: extra['store'] !== false,
    temperature: request.params.temperature ?? 1,
    text: {
      format: request.responseFormat ? encodeResponsesTextFormat(request.responseFormat) : { type: 'text' },
      verbosity: 'medium',
      ...textExtra,
    },
    tool_choice: extra['tool_choice'] ?? (request.toolChoice ? encodeResponsesToolChoice(request.toolChoice, request.tools) : 'auto'),
    tools: request.tools ? encodeResponsesTools(request.tools) : [],
    top_logprobs: typeof extra['top_logprobs'] === 'number' ? extra['top_logprobs'] : 0,
    top_p: request.params.topP ?? 1,
    truncation: readString(extra, 'truncation') ?? 'disabled',
    usage: state.usage,
    user: request.user ?? null,
    metadata: { ...(request.metadata ?? {}) },
  };
}

/** `instructions` decode into a leading system turn that is not a developer message. */
function instructionsOf(request: IrRequest): string | null {
  const first = request.messages[0];
  if (first === undefined || first.role !== 'system' || first.developer) return null;
  const text = first.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  return text === '' ? null : text;
}
