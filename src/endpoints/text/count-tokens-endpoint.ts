import { GatewayError, toGatewayError } from '../../errors/gateway-error.js';
import { decodeMessagesCountTokensRequest, messagesFormat } from '../../formats/messages/index.js';
import { replaceTopLevelString } from '../../passthrough/rewrite-body.js';
import type { ProviderAdapter, TokenCounting } from '../../providers/provider-adapter.js';
import { adapterFor } from '../../providers/registry.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { AbortScope } from '../../call/abort-scope.js';
import type { CatalogRoute } from '../../catalog/model-catalog.js';
import { countInputTokens } from '../../tokens/count-input-tokens.js';
import { parseUpstreamJson } from '../../upstream/parse-upstream-json.js';
import { flattenHeaders, readBodyText, sendUpstream } from '../../upstream/upstream-client.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayServices } from '../gateway-services.js';
import { parseJsonObject } from '../../http/read-request-body.js';
import { readAuthorisedRequest } from '../read-authorised-request.js';
import { clientAbortScope } from '../../http/request-headers.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { CallLimits } from '../../governance/key-limits.js';
import { withLimitHeaders } from '../../http/with-limit-headers.js';
import { resolveModel } from '../../routing/resolve-model.js';

/**
 * `POST /v1/messages/count_tokens`: asked of the upstream when it counts Messages bodies itself
 * (its count is exact), otherwise counted locally with a tokenizer. A count is a call like any
 * other to the key's rate limits (each may reach the upstream), but costs nothing, so it meets no
 * budget and leaves no ledger entry.
 */
export async function handleCountTokens(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  const { catalog, routing } = services.catalog.current();
  let limits: CallLimits | undefined;
  try {
    const { key, forwarded, rawBody } = await readAuthorisedRequest(context.env.incoming, services, 'messages', 'messages');
    limits = await services.limits.admit(key);
    const request = decodeMessagesCountTokensRequest(parseJsonObject(rawBody));
    const model = resolveModel(catalog, request.model, 'text', key);
    const route = model.routes[0] as CatalogRoute;
    const adapter = adapterFor(route.target);
    const counting = adapter.tokenCounting;
    const inputTokens =
      counting?.nativeFormat === 'messages'
        ? await countUpstream({ adapter, counting, route, rawBody, forwarded, signal: clientAbortScope(context.env.outgoing, services.drain), timeoutMs: routing.timeout_ms }).catch(
            (error: unknown) => {
              // An unreachable or overloaded upstream is no reason to fail a count; a refusal is.
              if (!toGatewayError(error).retryable) throw error;
              services.logger.warn({ requestId, code: toGatewayError(error).code }, 'upstream token count failed; counting locally');
              return countInputTokens(request);
            },
          )
        : await countInputTokens(request);
    return withLimitHeaders(context.json({ input_tokens: inputTokens }, 200, { 'x-request-id': requestId }), limits, 'messages');
  } catch (error) {
    return withLimitHeaders(errorResponse(error, requestId, messagesFormat), limits, 'messages');
  } finally {
    limits?.finish();
  }
}

interface UpstreamCount {
  readonly adapter: ProviderAdapter;
  readonly counting: TokenCounting;
  readonly route: CatalogRoute;
  readonly rawBody: string;
  readonly forwarded: Record<string, string>;
  readonly signal: AbortScope;
  readonly timeoutMs: number;
}

async function countUpstream({ adapter, counting, route, rawBody, forwarded, signal, timeoutMs }: UpstreamCount): Promise<number> {
  const body = replaceTopLevelString(rawBody, 'model', route.target.model) ?? rawBody;
  const response = await sendUpstream({
    url: counting.countUrl(route.target),
    headers: adapter.upstreamHeaders(route.target, forwarded),
    body,
    signal,
    timeoutMs: route.timeoutMs ?? timeoutMs,
  });
  const text = await readBodyText(response);
  if (response.statusCode >= 400) throw decodeUpstreamError(adapter, route.target, response.statusCode, text, flattenHeaders(response.headers));
  const inputTokens = counting.readInputTokens(parseUpstreamJson(text));
  if (inputTokens === undefined) throw new GatewayError('upstream_invalid_response', 'The upstream token count had no input_tokens.');
  return inputTokens;
}
