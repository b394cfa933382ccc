import type { ChatRequestInput } from './chat-request-schema.js';
import { type Check, memberCheckTable, passesMemberChecks, isObject, isString, isBoolean, isCount, never, nullOr, between } from '../validation/plain-checks.js';

/**
 * Whether a parsed chat body has only the shapes most calls send — text messages, sampling
 * parameters, function tools listed by type — each valid as `chatRequestSchema` has it. Then the
 * body can stand for the schema's output (objects are loose: the output holds the same members),
 * and the schema, several times the cost of these checks, is skipped. Anything else (content
 * parts other than text, tool calls, structured tool choices and response formats, a value out of
 * range) answers false, and the schema decides and words the error: this check never has to
 * refuse, only to accept what the schema surely accepts. `plain-chat-request.test.ts` holds the
 * two to the same verdicts.
 */
export function isPlainChatRequest(body: Record<string, unknown>): body is ChatRequestInput {
  return passesMemberChecks(body, memberChecks) && typeof body.model === 'string' && body.messages !== undefined;
}

const memberChecks: Readonly<Record<string, Check | undefined>> = memberCheckTable({
  model: (value: unknown) => typeof value === 'string' && value.length > 0,
  messages: (value: unknown) => Array.isArray(value) && value.length > 0 && value.every(isPlainMessage),
  tools: nullOr((value) => Array.isArray(value) && value.every((tool) => isObject(tool) && typeof tool.type === 'string')),
  tool_choice: nullOr((value) => value === 'none' || value === 'auto' || value === 'required'),
  parallel_tool_calls: nullOr(isBoolean),
  response_format: nullOr((value) => isObject(value) && (value.type === 'text' || value.type === 'json_object')),
  stop: nullOr((value) => typeof value === 'string' || (Array.isArray(value) && value.every(isString))),
  temperature: nullOr(between(0, 2)),
  top_p: nullOr(between(0, 1)),
  frequency_penalty: nullOr(between(-2, 2)),
  presence_penalty: nullOr(between(-2, 2)),
  seed: nullOr((value) => Number.isSafeInteger(value)),
  n: nullOr((value) => Number.isSafeInteger(value) && (value as number) >= 1),
  max_tokens: nullOr(isCount),
  max_completion_tokens: nullOr(isCount),
  reasoning_effort: nullOr((value) => typeof value === 'string' && reasoningEfforts.has(value)),
  stream: nullOr(isBoolean),
  stream_options: nullOr((value) => isObject(value) && (value.include_usage === undefined || isBoolean(value.include_usage))),
  user: nullOr(isString),
  metadata: nullOr((value) => isObject(value) && Object.values(value).every(isString)),
});

const reasoningEfforts: ReadonlySet<string> = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

/** A system, developer, user or tool turn of text, or an assistant turn without calls. */
function isPlainMessage(message: unknown): boolean {
  if (!isObject(message)) return false;
  if (message.name !== undefined && typeof message.name !== 'string') return false;
  switch (message.role) {
    case 'system':
    case 'developer':
    case 'user':
      return isPlainContent(message.content);
    case 'tool':
      return typeof message.tool_call_id === 'string' && isPlainContent(message.content);
    case 'assistant':
      return (
        (message.content === undefined || message.content === null || isPlainContent(message.content)) &&
        isAbsentOr(message.refusal, isString) &&
        isAbsentOr(message.reasoning_content, isString) &&
        isAbsentOr(message.tool_calls, never) &&
        isAbsentOr(message.function_call, never)
      );
    default:
      return false;
  }
}

/** A string, or an array of text parts. */
function isPlainContent(content: unknown): boolean {
  if (typeof content === 'string') return true;
  return Array.isArray(content) && content.every((part) => isObject(part) && part.type === 'text' && typeof part.text === 'string');
}

function isAbsentOr(value: unknown, check: Check): boolean {
  return value === undefined || value === null || check(value);
}
