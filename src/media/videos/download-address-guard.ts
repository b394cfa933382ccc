import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent } from '../../upstream/undici-agent.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { isLoopbackName, isPrivateAddress } from './private-address.js';

/** `videos.download_private_addresses`: whether content may come from inside the gateway's network. */
export type PrivateAddressRule = 'auto' | 'allow' | 'refuse';

/** The job's error says why, never where: the address is the gateway's network's, not the client's business. */
function refusedInside(): GatewayError {
  return new GatewayError('upstream_content_refused', "The upstream's content is at a private or loopback address, which the gateway does not fetch from.");
}

/** Every address a host name has (an IP literal is its own). */
function addressesOf(host: string): Promise<readonly string[]> {
  if (isIP(host) !== 0) return Promise.resolve([host]);
  return new Promise((resolve) => {
    lookup(host, { all: true }, (error, found) => resolve(error === null ? found.map((entry) => entry.address) : []));
  });
}

/**
 * Whether a provider's content may be fetched from private addresses. `auto` trusts them only for a
 * provider that is itself inside (the simulator, a server on the operator's network, whose storage
 * links naturally point there too); a provider on the internet has no business sending the gateway
 * into its own network, so its links and redirects there are refused.
 */
export async function allowsPrivateAddresses(rule: PrivateAddressRule, providerBaseUrl: string): Promise<boolean> {
  if (rule !== 'auto') return rule === 'allow';
  const host = new URL(providerBaseUrl).hostname.replace(/^\[|\]$/g, '');
  if (isLoopbackName(host)) return true;
  const addresses = await addressesOf(host);
  return addresses.length > 0 && addresses.every(isPrivateAddress);
}

/**
 * Refuses a URL that names an address inside before anything is sent: an IP literal or a loopback
 * name (neither is looked up when connecting, so the guarded dispatcher never sees them).
 */
export function assertOutsideHost(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GatewayError('upstream_content_refused', `The upstream's content is at a ${url.protocol} URL; only http and https are fetched.`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLoopbackName(host) || isPrivateAddress(host)) throw refusedInside();
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The name lookup of the guarded dispatcher's connections: a name with any address inside is
 * refused at connect time, so a name made to resolve inside (or to re-resolve there after a first
 * check) reaches nothing.
 */
function outsideOnlyLookup(host: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(host, { ...options, all: true } satisfies LookupAllOptions, (error, found) => {
    if (error !== null) {
      callback(error, []);
      return;
    }
    if (found.some((entry) => isPrivateAddress(entry.address))) {
      callback(refusedInside(), []);
      return;
    }
    const first = found[0];
    if (options.all === true || first === undefined) callback(null, found);
    else callback(null, first.address, first.family);
  });
}

let guarded: Agent | undefined;

/** A dispatcher whose connections go to public addresses only. */
export function outsideOnlyDispatcher(): Agent {
  guarded ??= new Agent({ keepAliveTimeout: 30_000, connect: { lookup: outsideOnlyLookup } });
  return guarded;
}
