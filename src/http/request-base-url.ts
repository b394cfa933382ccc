import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/** A host name, IPv4 address or bracketed IPv6 address, with an optional port: nothing that could end the authority. */
const hostPattern = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The gateway's address as a client reached it, for absolute URLs the gateway hands back (image
 * URLs): `server.public_url` when configured, otherwise the request's Host header and the
 * connection's own scheme.
 *
 * `X-Forwarded-Host` and `X-Forwarded-Proto` are deliberately not honoured: without a proxy that
 * overwrites them any client can send them, and the gateway cannot tell which proxies to trust.
 * Behind a proxy or a TLS terminator, `server.public_url` says where the gateway is reached. A
 * missing or malformed Host header (HTTP/1.0 clients may send none) falls back to the address
 * the connection arrived on, so a URL is always well formed.
 */
export function requestBaseUrl(incoming: IncomingMessage, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl.replace(/\/+$/, '');
  const scheme = 'encrypted' in incoming.socket && incoming.socket.encrypted === true ? 'https' : 'http';
  const host = incoming.headers.host;
  if (host !== undefined && hostPattern.test(host)) return `${scheme}://${host}`;
  return `${scheme}://${socketAuthority(incoming)}`;
}

function socketAuthority(incoming: IncomingMessage): string {
  const address = incoming.socket.localAddress ?? '127.0.0.1';
  const port = incoming.socket.localPort;
  const hostname = isIPv6(address) ? `[${address}]` : address;
  return port === undefined ? hostname : `${hostname}:${port}`;
}
