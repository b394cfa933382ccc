import type { IncomingHttpHeaders } from 'node:http';

/** An Azure OpenAI call as the simulator serves it: OpenAI's own path, or Azure's refusal. */
export type AzureCall = { readonly kind: 'served'; readonly path: string } | { readonly kind: 'refused'; readonly status: number; readonly body: unknown };

const v1Path = /^\/openai\/v1(\/.+)$/;
const deploymentPath = /^\/openai\/deployments\/[^/]+(\/.+)$/;
const responsesPath = /^\/openai(\/responses(?:\/.*)?)$/;

/** Azure's answer to a path without `api-version`, or to a deployment it does not have. */
const resourceNotFound = { error: { code: '404', message: 'Resource not found' } };
/** Azure's answer to a call without a key or token. */
const accessDenied = {
  error: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
};

/**
 * Azure's two path shapes, mapped onto the OpenAI paths the simulator serves: the v1 API
 * (`/openai/v1/…`) and the classic form (`/openai/deployments/{deployment}/…?api-version=`, and
 * `/openai/responses?api-version=`), which Azure does not find without its API version. Any key or
 * bearer token is accepted, as the simulator's other vendors accept any, but one must be sent.
 * Undefined for a path that is not Azure's.
 */
export function azureCall(pathname: string, query: URLSearchParams, headers: IncomingHttpHeaders): AzureCall | undefined {
  const v1 = v1Path.exec(pathname);
  const classic = v1 === null ? (deploymentPath.exec(pathname) ?? responsesPath.exec(pathname)) : null;
  const operation = v1?.[1] ?? classic?.[1];
  if (operation === undefined) return undefined;
  if (classic !== null && !query.has('api-version')) return { kind: 'refused', status: 404, body: resourceNotFound };
  const credential = headers['api-key'] ?? headers.authorization;
  if (credential === undefined || credential === '') return { kind: 'refused', status: 401, body: accessDenied };
  return { kind: 'served', path: `/v1${operation}` };
}
