import type { ResponsesRequestInput } from './responses-request-schema.js';
import { type Check, memberCheckTable, passesMemberChecks, isObject, isString, isBoolean, never, nullOr, between } from '../validation/plain-checks.js';

/**
 * Whether a parsed `POST /v1/responses` body has only the shapes most calls send — input as text
 * or items that are objects, instructions, tools that name their type, sampling parameters — each
 * valid as `responsesRequestSchema` has it. Then the body can stand for the schema's output
 * (objects are loose: the output holds the same members) and the schema, several times the cost
 * of these checks, is skipped; input items and tools are checked one by one later either way.
 * Anything else (a tool choice other than a plain word, reasoning or text options, a value out of
 * range) answers false, and the schema decides and words the error: this check never has to
 * refuse, only to accept what the schema surely accepts. `plain-responses-request.test.ts` holds
 * the two to the same verdicts.
 */
export function isPlainResponsesRequest(body: Record<string, unknown>): body is ResponsesRequestInput {
  return passesMemberChecks(body, memberChecks) && typeof body.model === 'string';
}

const memberChecks: Readonly<Record<string, Check | undefined>> = memberCheckTable({
  model: (value: unknown) => typeof value === 'string' && value.length > 0,
  input: nullOr((value) => typeof value === 'string' || (Array.isArray(value) && value.every(isObject))),
  instructions: nullOr(isString),
  tools: nullOr((value) => Array.isArray(value) && value.every((tool) => isObject(tool) && isString(tool.type))),
  tool_choice: nullOr((value) => value === 'none' || value === 'auto' || value === 'required'),
  parallel_tool_calls: nullOr(isBoolean),
  // Left to the schema unless null: their shapes vary, and their enums are the schema's to hold.
  reasoning: nullOr(never),
  text: nullOr(never),
  max_output_tokens: nullOr((value) => Number.isSafeInteger(value) && (value as number) > 0),
  temperature: nullOr(between(0, 2)),
  top_p: nullOr(between(0, 1)),
  stream: nullOr(isBoolean),
  user: nullOr(isString),
  metadata: nullOr((value) => isObject(value) && Object.values(value).every(isString)),
});
