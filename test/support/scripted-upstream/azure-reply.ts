import type { ReceivedRequest } from './received-request.js';
import { json, type Reply } from './reply.js';

/** Where an Azure OpenAI call went, as the service reads its path. */
export interface AzureOperation {
  /** `v1` for the v1 API (`/openai/v1/…`), `classic` for `deployments/{deployment}/…?api-version=`. */
  readonly form: 'v1' | 'classic';
  /** `chat/completions`, `responses`, `images/generations`, `images/edits`. */
  readonly operation: string;
  /** The deployment named in a classic path; the body's `model` otherwise. */
  readonly deployment: string | undefined;
  readonly apiVersion: string | undefined;
}

export interface AzureChecks {
  /** The resource's key, taken in the `api-key` header. */
  readonly apiKey?: string;
  /** Whether a bearer token is one the fake Entra authority issued and still valid. */
  readonly acceptsBearer?: (token: string) => boolean;
}

/**
 * Azure's documented answers to a call it cannot serve (Azure OpenAI REST reference, "Resource not
 * found" for a path without `api-version` or an unknown deployment; "Access denied" for a missing
 * or wrong key): the fake checks what the service checks before the scripted answer is given.
 */
const resourceNotFound = json({ error: { code: '404', message: 'Resource not found' } }, 404);
const accessDenied = json(
  {
    error: {
      code: '401',
      message:
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    },
  },
  401,
);

const classicDeployment = /^\/openai\/deployments\/([^/?]+)\/([^?]+)$/;
const classicResponses = /^\/openai\/(responses(?:\/[^?]*)?)$/;
const v1Operation = /^\/openai\/v1\/([^?]+)$/;

/** An Azure path read as the service reads it; undefined for a path Azure does not serve. */
export function azureOperation(request: ReceivedRequest): AzureOperation | undefined {
  const url = new URL(request.path, 'http://azure.invalid');
  const apiVersion = url.searchParams.get('api-version') ?? undefined;
  const v1 = v1Operation.exec(url.pathname);
  if (v1 !== null) return { form: 'v1', operation: v1[1] as string, deployment: undefined, apiVersion };
  const deployment = classicDeployment.exec(url.pathname);
  if (deployment !== null) return { form: 'classic', operation: deployment[2] as string, deployment: decodeURIComponent(deployment[1] as string), apiVersion };
  const responses = classicResponses.exec(url.pathname);
  if (responses !== null) return { form: 'classic', operation: responses[1] as string, deployment: undefined, apiVersion };
  return undefined;
}

/**
 * A fake Azure OpenAI resource on the scripted upstream: a classic path without `api-version` is
 * not found, a call without the key or a valid Entra ID token is denied, and only then is the
 * scripted answer given, with the operation it was asked for.
 */
export function azureReply(checks: AzureChecks, answer: (operation: AzureOperation, request: ReceivedRequest) => Reply): (request: ReceivedRequest) => Reply {
  return (request) => {
    const operation = azureOperation(request);
    if (operation === undefined || (operation.form === 'classic' && operation.apiVersion === undefined)) return resourceNotFound;
    const key = request.headers['api-key'];
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    // The v1 API also takes the key as a bearer token, so OpenAI's own client works against it.
    const keyAccepted = checks.apiKey !== undefined && (key === checks.apiKey || (operation.form === 'v1' && bearer === checks.apiKey));
    const bearerAccepted = bearer !== undefined && bearer !== checks.apiKey && checks.acceptsBearer?.(bearer) === true;
    if (!keyAccepted && !bearerAccepted) return accessDenied;
    return answer(operation, request);
  };
}
