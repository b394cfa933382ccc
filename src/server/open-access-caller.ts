import { isIPv4 } from 'node:net';
import { GatewayError } from '../errors/gateway-error.js';
import type { HeaderSource } from './request-headers.js';

/**
 * Whether a keyless call let in by open access may come from where it says. A web page the
 * operator visits can make the browser call the gateway: a page of another site sends its
 * `Origin` (and `Sec-Fetch-Site: cross-site`), even for a form POST or a `no-cors` fetch whose
 * answer it cannot read, and would be spending the operator's money; a DNS-rebinding page reaches
 * the gateway under its own host name, same-origin, and could also read the answers. A command-line
 * client or SDK sends no `Origin` and names the address it dialled.
 *
 * `loopbackHostOnly` is for `auto`, where keyless access exists only for clients on this machine:
 * the `Host` must then be a loopback name (localhost, 127.x, [::1], with any port). Under
 * `always` the operator chose to open the gateway wherever it is reached (behind a proxy, under
 * a public name), so only the cross-site checks apply.
 */
export function assertOpenAccessCaller(headers: HeaderSource, loopbackHostOnly: boolean): void {
  const host = headers.get('host') ?? '';
  if (loopbackHostOnly && !isLoopbackHostname(hostnameOf(host))) {
    throw new GatewayError(
      'permission_denied',
      'Calls without an API key are accepted only under a loopback Host (localhost, 127.x or [::1]) until the first key exists. Send an API key (create one with `switchyard keys create`).',
    );
  }
  if (headers.get('sec-fetch-site')?.trim().toLowerCase() === 'cross-site' || !originMayCall(headers.get('origin'), host)) {
    throw new GatewayError('permission_denied', 'Calls without an API key are not accepted from a page of another site. Send an API key.');
  }
}

/**
 * No `Origin` (not a browser, or a same-origin GET); the gateway's own origin (its console); or a
 * page on this machine (a loopback host name, any port), which is the same site for a gateway
 * reached on loopback. `null` (a sandboxed frame, a file) and anything unreadable are refused.
 */
function originMayCall(origin: string | null, host: string): boolean {
  if (origin === null) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.host.toLowerCase() === host.trim().toLowerCase()) return true;
  return isLoopbackHostname(parsed.hostname);
}

/** The name in a `Host` header or a URL's hostname, without its port; an IPv6 literal keeps no brackets. */
function hostnameOf(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    return end === -1 ? trimmed : trimmed.slice(1, end);
  }
  const colon = trimmed.indexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

function isLoopbackHostname(name: string): boolean {
  const bare = name.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
}
