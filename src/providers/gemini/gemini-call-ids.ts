import { randomUUID } from 'node:crypto';

/**
 * Gemini's Developer API gives function calls no ids, but every client format needs one to pair
 * a call with its result. Ids are `call_<responseId>_<n>`: stable within one response, and unique
 * across a conversation because each response has its own id.
 */
export function createCallIdMinter(responseId: string): () => string {
  let count = 0;
  return () => `call_${responseId}_${count++}`;
}

/** Stands in for `responseId` when the upstream gave none (older models, some proxies). */
export function fallbackResponseId(): string {
  return randomUUID().replaceAll('-', '');
}
