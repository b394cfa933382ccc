import { GatewayError } from '../errors/gateway-error.js';
import type { ResponseStore, StoredResponseRecord } from './response-store.js';
import { keylessCaller } from '../keys/keyless-caller.js';

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
  const record = await findStoredResponse(store, previousId, keyId);
  if (record === undefined) {
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

/**
 * Where a key's stored response is kept. Response ids are the upstream's, and an upstream (a
 * compatible server, a proxy, a replay) may give two keys' answers the same one: stored under the
 * id alone, one key's answer would replace the other's. Key ids hold no `/`, so keys never meet.
 */
export function storedResponseKey(keyId: string | null, responseId: string): string {
  return `${keyId ?? keylessCaller}/${responseId}`;
}

/** The response `responseId` that `keyId` stored, if it is still kept; another key's is never found. */
export async function findStoredResponse(store: ResponseStore, responseId: string, keyId: string | null): Promise<StoredResponseRecord | undefined> {
  const own = await store.get(storedResponseKey(keyId, responseId));
  if (own !== undefined) return own;
  // Responses stored before they were kept per key are under their id alone, with their key beside it.
  const unprefixed = await store.get(responseId);
  return unprefixed !== undefined && unprefixed.keyId === keyId ? unprefixed : undefined;
}

/**
 * Keeps a finished response for retrieval and continuation, under its key. Resolves false when
 * the key already has a response under the same id: the one stored first is kept, never replaced.
 */
export async function storeResponse(
  store: ResponseStore,
  response: Readonly<Record<string, unknown>>,
  conversationInput: readonly unknown[],
  keyId: string | null,
  now = new Date(),
): Promise<boolean> {
  const id = response.id;
  if (typeof id !== 'string' || id === '') return false;
  const output = Array.isArray(response.output) ? response.output : [];
  const conversation: StoredConversation = { response, input: [...conversationInput, ...output] };
  return store.putIfAbsent({
    id: storedResponseKey(keyId, id),
    keyId,
    body: JSON.stringify(conversation),
    createdAt: now,
    expiresAt: new Date(now.getTime() + storedResponseLifetimeMs),
  });
}
