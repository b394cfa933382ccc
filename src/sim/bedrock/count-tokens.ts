import type { JsonRecord } from '../../json/json-value.js';
import { asRecord, asString, isRecord } from '../../json/json-value.js';
import { extractMessages } from '../extract-messages.js';
import { inputTokensFor } from '../plan-reply.js';
import { extractConverse } from './extract-converse.js';
import { checkClaudeBody } from './invoke-endpoint.js';

/**
 * CountTokens (`POST /model/{id}/count-tokens`): `input.invokeModel.body` (the InvokeModel body in
 * base64, checked as InvokeModel checks it) or `input.converse` (a Converse body's messages,
 * system and tools). The count is the `inputTokens` the same call reports. A string is the 400's message.
 */
export function countBedrockTokens(body: JsonRecord, model: string): { inputTokens: number } | string {
  const input = asRecord(body.input);
  if (input === undefined) return "1 validation error detected: Value null at 'input' failed to satisfy constraint: Member must not be null";
  const converse = asRecord(input.converse);
  if (converse !== undefined) return { inputTokens: inputTokensFor(extractConverse(converse, model).inputCharacters) };
  const encoded = asString(asRecord(input.invokeModel)?.body);
  if (encoded === undefined) return 'input must hold invokeModel.body or converse.';
  let wrapped: unknown;
  try {
    wrapped = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return 'Malformed input request, please reformat your input and try again.';
  }
  if (!isRecord(wrapped)) return 'Malformed input request, please reformat your input and try again.';
  return checkClaudeBody(wrapped) ?? { inputTokens: inputTokensFor(extractMessages(wrapped).inputCharacters) };
}
