import { GatewayError } from '../errors/gateway-error.js';
import type { ResponseStore } from '../storage/ports.js';

/**
 * What is kept of a stored response: the object the client received, and the whole conversation
 * as Responses input items (earlier turns, this turn's input, this turn's output), so that
 * `previous_response_id` can continue it on any upstream. `instructions` are deliberately not part
 * of it: the Responses API does not carry them over either.
 */
export interface StoredConversation {
  readonly response: Readonly<Record<string, unknown>>;
  readonly input: readonly unknown[];
}

/** How long a stored response can be retrieved or continued. */
export const storedResponseLifetimeMs = 30 * 24 * 60 * 60 * 1000;

export interface ExpandedRequest {
  readonly parsedBody: Record<string, unknown>;
  /** The body text to send on; unchanged when there was nothing to expand. */
  readonly rawBody: string;
  /** This turn's conversation so far, to be stored with the answer. */
  readonly conversationInput: readonly unknown[];
}

/**
 * Resolves `previous_response_id` by prepending the stored conversation to `input`, so the call is
 * self-contained and any upstream can serve it. A response stored under another key is treated
 * as unknown.
 */
export async function expandPreviousResponse(
  store: ResponseStore,
  parsedBody: Record<string, unknown>,
  rawBody: string,
  keyId: string | null,
): Promise<ExpandedRequest> {
  const input = asInputItems(parsedBody.input);
  const previousId = parsedBody.previous_response_id;
  if (previousId === undefined || previousId === null) return { parsedBody, rawBody, conversationInput: input };
  if (typeof previousId !== 'string' || previousId === '') {
    throw new GatewayError('invalid_field', 'previous_response_id must be a non-empty string.', { param: 'previous_response_id' });
  }
  const record = await store.get(previousId);
  if (record === undefined || (record.keyId !== null && record.keyId !== keyId)) {
    throw new GatewayError('previous_response_not_found', `Previous response with id '${previousId}' not found.`, {
      param: 'previous_response_id',
    });
  }
  const stored = JSON.parse(record.body) as StoredConversation;
  const expandedInput = [...stored.input, ...input];
  const expanded: Record<string, unknown> = { ...parsedBody, input: expandedInput };
  delete expanded.previous_response_id;
  return { parsedBody: expanded, rawBody: JSON.stringify(expanded), conversationInput: expandedInput };
}

/** Responses `input` as a list of items: a bare string is one user message. */
function asInputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

/** Keeps a finished response for retrieval and continuation. */
export async function storeResponse(
  store: ResponseStore,
  response: Readonly<Record<string, unknown>>,
  conversationInput: readonly unknown[],
  keyId: string | null,
  now = new Date(),
): Promise<void> {
  const id = response.id;
  if (typeof id !== 'string' || id === '') return;
  const output = Array.isArray(response.output) ? response.output : [];
  const conversation: StoredConversation = { response, input: [...conversationInput, ...output] };
  await store.put({
    id,
    keyId,
    body: JSON.stringify(conversation),
    createdAt: now,
    expiresAt: new Date(now.getTime() + storedResponseLifetimeMs),
  });
}
