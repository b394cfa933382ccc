import { GatewayError, toGatewayError } from '../../errors/gateway-error.js';
import { decodeMessagesCountTokensRequest, messagesFormat } from '../../formats/messages/index.js';
import type { IrRequest } from '../../ir/request.js';
import { replaceTopLevelString } from '../../passthrough/rewrite-body.js';
import type { ProviderAdapter, TokenCounting } from '../../providers/provider-adapter.js';
import { adapterFor } from '../../providers/registry.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { AbortScope } from '../../call/abort-scope.js';
import type { CatalogRoute } from '../../catalog/model-catalog.js';
import { countInputTokens } from '../../tokens/count-input-tokens.js';
import { parseUpstreamJson } from '../../upstream/parse-upstream-json.js';
import { flattenHeaders, readBodyText } from '../../upstream/upstream-client.js';
import { sendAuthorized } from '../../upstream/send-authorized.js';
import { parseJsonObject } from '../../http/read-request-body.js';
import { resolveModel } from '../../routing/resolve-model.js';
import type { MeteredAnswer, MeteredEndpoint } from '../metered-call/metered-endpoint.js';
import { readJsonRequest, type JsonRequest } from '../metered-call/read-json-request.js';

interface DecodedCount {
  readonly asked: JsonRequest;
  readonly request: IrRequest;
  readonly route: CatalogRoute;
}

/**
 * `POST /v1/messages/count_tokens`: asked of the upstream when it counts Messages bodies itself
 * (its count is exact), otherwise counted locally with a tokenizer. A count is a call like any
 * other to the key's rate limits (each may reach the upstream: one request, no tokens), but costs
 * nothing, so it meets no budget and leaves no ledger entry.
 */
export const countTokensEndpoint: MeteredEndpoint<JsonRequest, DecodedCount, MeteredAnswer> = {
  family: 'messages',
  format: messagesFormat,
  read: (call) => readJsonRequest(call, 'messages'),
  decode(call, asked) {
    const request = decodeMessagesCountTokensRequest(parseJsonObject(asked.rawBody));
    const model = resolveModel(call.snapshot.catalog, request.model, 'text', call.key);
    return { asked, request, route: model.routes[0] as CatalogRoute };
  },
  worstCase: undefined,
  async send(call, { asked, request, route }) {
    const adapter = adapterFor(route.target);
    const counting = adapter.tokenCounting;
    const inputTokens =
      counting?.nativeFormat === 'messages'
        ? await countUpstream({ adapter, counting, route, rawBody: asked.rawBody, forwarded: asked.forwarded, signal: call.abortScope(), timeoutMs: call.snapshot.routing.timeout_ms }).catch(
            (error: unknown) => {
              // An unreachable or overloaded upstream is no reason to fail a count; a refusal is.
              if (!toGatewayError(error).retryable) throw error;
              call.services.logger.warn({ requestId: call.requestId, code: toGatewayError(error).code }, 'upstream token count failed; counting locally');
              return countInputTokens(request);
            },
          )
        : await countInputTokens(request);
    return { contentType: 'application/json', body: JSON.stringify({ input_tokens: inputTokens }) };
  },
  meter: undefined,
  meterFailure: undefined,
};

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
  const renamed = replaceTopLevelString(rawBody, 'model', route.target.model) ?? rawBody;
  const body = counting.countBody === undefined ? renamed : counting.countBody(renamed, route.target, forwarded);
  const response = await sendAuthorized(adapter, route.target, {
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
