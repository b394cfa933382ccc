import type { UpstreamTarget } from '../../provider-adapter.js';
import { azureUrl } from './azure-url.js';

interface OpenAICall<Body> {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Body;
}

/**
 * An OpenAI call moved to Azure: the path below the OpenAI root becomes Azure's (see azureUrl),
 * and OpenAI's bearer key becomes Azure's `api-key` header. Without a key the call goes without a
 * credential here; the adapter's authorization step adds an Entra ID bearer token.
 */
export function azureCall<Body>(call: OpenAICall<Body>, target: UpstreamTarget): OpenAICall<Body> {
  const operation = call.url.slice(target.baseUrl.length + 1);
  return { url: azureUrl(target, operation), headers: azureHeaders(call.headers, target), body: call.body };
}

/**
 * OpenAI's headers with Azure's credential in place of OpenAI's: the key as `api-key`, not as a
 * bearer token. An `authorization` header the operator configured stays.
 */
export function azureHeaders(headers: Readonly<Record<string, string>>, target: UpstreamTarget): Record<string, string> {
  if (!target.apiKey) return { ...headers };
  const { authorization, ...rest } = headers;
  const operatorsOwn = authorization !== undefined && authorization !== `Bearer ${target.apiKey}`;
  return { ...rest, 'api-key': target.apiKey, ...(operatorsOwn ? { authorization } : {}) };
}
