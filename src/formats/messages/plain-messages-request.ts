import type { MessagesRequestInput } from './messages-request-schema.js';
import { type Check, memberCheckTable, passesMemberChecks, isObject, isString, never, between } from '../validation/plain-checks.js';

/**
 * Whether a parsed `POST /v1/messages` body has only the shapes most calls send — turns whose
 * content is text or blocks that name their type, a text system prompt, tools as objects, sampling
 * parameters — each valid as `messagesRequestSchema` has it. Then the body can stand for the
 * schema's output (objects are loose: the output holds the same members) and the schema, several
 * times the cost of these checks, is skipped; blocks and tools are checked one by one later either
 * way. Anything else (a tool choice, thinking, an output config, cache control on the system
 * prompt, a null, a value out of range) answers false, and the schema decides and words the error:
 * this check never has to refuse, only to accept what the schema surely accepts.
 * `plain-messages-request.test.ts` holds the two to the same verdicts.
 */
export function isPlainMessagesRequest(body: Record<string, unknown>): body is MessagesRequestInput {
  return passesMemberChecks(body, memberChecks) && typeof body.model === 'string' && body.messages !== undefined && body.max_tokens !== undefined;
}

const memberChecks: Readonly<Record<string, Check | undefined>> = memberCheckTable({
  model: (value: unknown) => typeof value === 'string' && value.length > 0,
  messages: (value: unknown) => Array.isArray(value) && value.length > 0 && value.every(isPlainMessage),
  system: (value: unknown) => typeof value === 'string' || (Array.isArray(value) && value.every(isPlainTextBlock)),
  tools: (value: unknown) => Array.isArray(value) && value.every(isObject),
  // Left to the schema whenever present: their shapes vary, and few calls send them.
  tool_choice: never,
  thinking: never,
  output_config: never,
  max_tokens: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1,
  stop_sequences: (value: unknown) => Array.isArray(value) && value.every(isString),
  temperature: between(0, 1),
  top_p: between(0, 1),
  top_k: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0,
  metadata: (value: unknown) => isObject(value) && (value.user_id === undefined || value.user_id === null || isString(value.user_id)),
  stream: (value: unknown) => typeof value === 'boolean',
});

/** A user, assistant or system turn whose content is text or blocks that each name their type. */
function isPlainMessage(message: unknown): boolean {
  if (!isObject(message)) return false;
  const role = message.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'system') return false;
  const content = message.content;
  return typeof content === 'string' || (Array.isArray(content) && content.every((block) => isObject(block) && isString(block.type)));
}

/** A text block without cache control (which the schema checks in detail). */
function isPlainTextBlock(block: unknown): boolean {
  return isObject(block) && block.type === 'text' && isString(block.text) && (block.cache_control === undefined || block.cache_control === null);
}
