import { GatewayError } from '../../../errors/gateway-error.js';
import type { AuthorizationHeaders, UpstreamTarget } from '../../provider-adapter.js';

/** What the gateway needs of an `@azure/identity` credential (its TokenCredential). */
export interface EntraCredential {
  getToken(scope: string): Promise<{ readonly token: string; readonly expiresOnTimestamp: number; readonly refreshAfterTimestamp?: number } | null>;
}

/** The scope of Azure OpenAI (Cognitive Services) tokens. */
export const cognitiveServicesScope = 'https://cognitiveservices.azure.com/.default';

/** A token is replaced this long before it expires, so no call leaves with one about to lapse. */
const refreshMarginMs = 5 * 60_000;

interface HeldToken {
  readonly headers: AuthorizationHeaders;
  readonly renewAt: number;
}

/**
 * Authorization by Microsoft Entra ID: one bearer token for every Azure upstream without a key,
 * fetched on the first call, held until shortly before it expires (or the time the credential
 * says to renew), then fetched again. Concurrent calls share one fetch. A held token is returned
 * as it is, not as a promise, so a call with a live token waits no turn for it.
 *
 * `@azure/identity` is loaded on first use: most gateways never need it, and it is large.
 */
export function createEntraAuthorization(
  loadCredential: () => Promise<EntraCredential> = loadDefaultCredential,
  now: () => number = Date.now,
): (target: UpstreamTarget) => AuthorizationHeaders | Promise<AuthorizationHeaders> {
  let credential: Promise<EntraCredential> | undefined;
  let held: HeldToken | undefined;
  let fetching: Promise<AuthorizationHeaders> | undefined;
  const fetchToken = async (): Promise<AuthorizationHeaders> => {
    credential ??= loadCredential();
    const token = await (await credential).getToken(cognitiveServicesScope).catch((error: unknown) => {
      // The credential's message can name tenants and hosts: it goes to the log as the cause only.
      throw new GatewayError('upstream_error', 'The gateway could not get a Microsoft Entra ID token for the Azure upstream.', { cause: error });
    });
    if (token === null) throw new GatewayError('upstream_error', 'Microsoft Entra ID gave no token for the Azure upstream.');
    const renewAt = Math.min(token.refreshAfterTimestamp ?? Number.POSITIVE_INFINITY, token.expiresOnTimestamp - refreshMarginMs);
    held = { headers: { authorization: `Bearer ${token.token}` }, renewAt };
    return held.headers;
  };
  return (target) => {
    // A key configured for this upstream is its credential: no token is fetched.
    if (target.apiKey) return {};
    if (held !== undefined && now() < held.renewAt) return held.headers;
    fetching ??= fetchToken().finally(() => {
      fetching = undefined;
    });
    return fetching;
  };
}

/** DefaultAzureCredential: environment, workload identity, managed identity, the Azure CLI, … */
async function loadDefaultCredential(): Promise<EntraCredential> {
  const { DefaultAzureCredential } = await import('@azure/identity');
  return new DefaultAzureCredential();
}
