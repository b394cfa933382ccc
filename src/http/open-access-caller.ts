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
  if (loopbackHostOnly && !isLoopbackHostname(hostAndPort(host).hostname)) {
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
 * No `Origin` (not a browser, or a same-origin GET); the gateway's own origin (its console), its
 * port compared with the scheme's default filled in, since a proxy may write `Host: x:443` for
 * `https://x`; or, for a gateway reached on loopback only, a page on this machine (a loopback host
 * name, any port), which is then the same site. Under a public name a loopback page is another
 * site: anything running on the visitor's machine could send it. `null` (a sandboxed frame, a
 * file) and anything unreadable are refused.
 */
function originMayCall(origin: string | null, host: string): boolean {
  if (origin === null) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  const called = hostAndPort(host);
  if (isLoopbackHostname(called.hostname)) return isLoopbackHostname(parsed.hostname);
  const originPort = parsed.port === '' ? defaultPorts[parsed.protocol] : parsed.port;
  const calledPort = called.port ?? defaultPorts[parsed.protocol];
  return stripBrackets(parsed.hostname.toLowerCase()) === called.hostname && originPort !== undefined && originPort === calledPort;
}

/** The port a browser leaves out of an origin it sends. */
const defaultPorts: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** The name in a `Host` header (lower case, an IPv6 literal without its brackets) and its port, when it names one. */
function hostAndPort(host: string): { readonly hostname: string; readonly port: string | undefined } {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    if (end === -1) return { hostname: trimmed, port: undefined };
    const rest = trimmed.slice(end + 1);
    return { hostname: trimmed.slice(1, end), port: rest.startsWith(':') ? rest.slice(1) : undefined };
  }
  const colon = trimmed.indexOf(':');
  return colon === -1 ? { hostname: trimmed, port: undefined } : { hostname: trimmed.slice(0, colon), port: trimmed.slice(colon + 1) };
}

function stripBrackets(name: string): string {
  return name.replace(/^\[(.*)\]$/, '$1');
}

/** Whether a host name or address (bracketed or not) is this machine's loopback. */
export function isLoopbackHostname(name: string): boolean {
  const bare = stripBrackets(name.toLowerCase());
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
}
