import { GatewayError, withMessage } from '../errors/gateway-error.js';
import type { UpstreamTarget } from './provider-adapter.js';

const maxMessageLength = 500;

/**
 * An upstream's error as clients and logs may see it. Upstream messages are useful (they say what
 * was wrong with a request) but are the upstream's own text: a provider or a proxy in front of it
 * may echo the credential it was sent, its own address or internal hosts. So the configured
 * credential and the base URL's host are removed, and so are URLs, IP addresses and anything shaped
 * like a vendor key. An upstream 401 or 403 is about the gateway's own credential, which the
 * client can do nothing about: it is answered with the gateway's message naming the provider.
 */
export function scrubUpstreamError(error: GatewayError, target: UpstreamTarget): GatewayError {
  const status = error.upstreamStatus;
  if (status === 401 || status === 403) {
    const message = `The upstream provider '${target.providerName}' refused the gateway's credentials (HTTP ${status}); the gateway's operator must check them.`;
    return new GatewayError(error.code, message, { status: error.status, upstreamStatus: status });
  }
  const scrubbed = scrubUpstreamText(error.message, target);
  const message = scrubbed.length > maxMessageLength ? `${scrubbed.slice(0, maxMessageLength)}…` : scrubbed;
  return message === error.message ? error : withMessage(error, message);
}

/** `text` without the target's credential and host, URLs, IP addresses or key-shaped strings. */
export function scrubUpstreamText(text: string, target: UpstreamTarget): string {
  let scrubbed = text;
  for (const secret of secretsOf(target)) scrubbed = scrubbed.split(secret).join('[credential]');
  return scrubbed
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, '[url]')
    .replace(hostPattern(target), '[upstream host]')
    .replace(/\[[0-9a-f:]*:[0-9a-f:]+\](?::\d+)?/gi, '[address]')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '[address]')
    .replace(/\b(?:sk|key|pk|rk)-[A-Za-z0-9_-]{12,}/g, '[credential]')
    .replace(/\bAIza[A-Za-z0-9_-]{20,}/g, '[credential]');
}

/** The credential and the extra header values the operator configured (they may hold tokens too). */
function secretsOf(target: UpstreamTarget): string[] {
  const secrets = [target.apiKey, ...Object.values(target.headers ?? {})].filter((value): value is string => value !== undefined && value.length >= 6);
  // The longest first, so a secret containing another is removed whole.
  return secrets.sort((left, right) => right.length - left.length);
}

/** The base URL's host, with or without its port, in any case (matching nothing without a host). */
function hostPattern(target: UpstreamTarget): RegExp {
  let hostname = '';
  try {
    hostname = new URL(target.baseUrl).hostname;
  } catch {
    // An unparsable base URL has no host to hide.
  }
  if (hostname === '') return /(?!)/g;
  return new RegExp(`${hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?::\\d+)?`, 'gi');
}
