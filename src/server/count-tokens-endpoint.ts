import { GatewayError, toGatewayError } from '../errors/gateway-error.js';
import { decodeMessagesCountTokensRequest, messagesFormat } from '../formats/messages/index.js';
import { replaceTopLevelString } from '../passthrough/rewrite-body.js';
import { adapterFor } from '../providers/registry.js';
import type { AbortScope } from '../routing/abort-scope.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import { countInputTokens } from '../tokens/count-input-tokens.js';
import { flattenHeaders, readBodyText, sendUpstream } from '../upstream/upstream-client.js';
import { errorResponse } from './error-response.js';
import type { GatewayServices } from './gateway-services.js';
import { parseJsonObject } from './read-request-body.js';
import { readAuthorisedRequest } from './read-authorised-request.js';
import { clientAbortScope } from './request-headers.js';
import type { GatewayContext } from './exchange.js';
import { resolveModel } from './text-endpoint.js';

/**
 * `POST /v1/messages/count_tokens`: asked of the Anthropic upstream when the model routes there
 * (its count is exact), otherwise counted locally with a tokenizer.
 */
export async function handleCountTokens(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const { key, forwarded, rawBody } = await readAuthorisedRequest(context.env.incoming, services, 'messages', 'messages');
    const request = decodeMessagesCountTokensRequest(parseJsonObject(rawBody));
    const model = resolveModel(services, request.model, key);
    const route = model.routes[0] as CatalogRoute;
    const inputTokens =
      route.target.kind === 'anthropic'
        ? await countUpstream(route, rawBody, forwarded, clientAbortScope(context.env.outgoing), services.config.routing.timeout_ms).catch((error: unknown) => {
            // An unreachable or overloaded upstream is no reason to fail a count; a refusal is.
            if (!toGatewayError(error).retryable) throw error;
            services.logger.warn({ requestId, code: toGatewayError(error).code }, 'upstream token count failed; counting locally');
            return countInputTokens(request);
          })
        : await countInputTokens(request);
    return context.json({ input_tokens: inputTokens }, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId, messagesFormat);
  }
}

async function countUpstream(
  route: CatalogRoute,
  rawBody: string,
  forwarded: Record<string, string>,
  signal: AbortScope,
  timeoutMs: number,
): Promise<number> {
  const adapter = adapterFor(route.target);
  const body = replaceTopLevelString(rawBody, 'model', route.target.model) ?? rawBody;
  const response = await sendUpstream({
    url: `${route.target.baseUrl}/v1/messages/count_tokens`,
    headers: adapter.upstreamHeaders(route.target, forwarded),
    body,
    signal,
    timeoutMs: route.timeoutMs ?? timeoutMs,
  });
  const text = await readBodyText(response);
  if (response.statusCode >= 400) throw adapter.decodeError(response.statusCode, text, flattenHeaders(response.headers));
  const parsed = JSON.parse(text) as { input_tokens?: unknown };
  if (typeof parsed.input_tokens !== 'number') throw new GatewayError('upstream_invalid_response', 'The upstream token count had no input_tokens.');
  return parsed.input_tokens;
}

