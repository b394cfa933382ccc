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

/** `text` without the target's credential and host, URLs, IP addresses, internal names or key-shaped strings. */
export function scrubUpstreamText(text: string, target: UpstreamTarget): string {
  let scrubbed = text;
  for (const secret of secretsOf(target)) scrubbed = scrubbed.split(secret).join('[credential]');
  return scrubbed
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, '[url]')
    .replace(hostPattern(target), '[upstream host]')
    .replace(/\[[0-9a-f:]*:[0-9a-f:]+\](?::\d+)?/gi, '[address]')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '[address]')
    .replace(unbracketedIpv6Pattern, '[address]')
    .replace(hostAndPortPattern, (name: string, lastLabel: string) => (sourceFileExtensions.has(lastLabel.toLowerCase()) ? name : '[address]'))
    .replace(bearerTokenPattern, '$1 [credential]')
    .replace(/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[credential]')
    .replace(/\b(?:sk|key|pk|rk)-[A-Za-z0-9_-]{12,}/g, '[credential]')
    .replace(/\bAIza[A-Za-z0-9_-]{20,}/g, '[credential]');
}

/**
 * An IPv6 address written without brackets (`ECONNREFUSED ::1:443`, `fd00::5`): either eight
 * groups, or groups around a `::` with at least one digit. Not preceded or followed by a word
 * character or a colon, so `std::vector`, `Face::Bad` and times like `12:30:45` stay as they are.
 */
const unbracketedIpv6Pattern = /(?<![\w:])(?:(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|(?=[0-9a-f:]*[0-9])(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?)(?![\w:])/gi;

/** `Bearer <token>` (or `Basic`): a token has a digit, so "Bearer authentication failed" is kept. */
const bearerTokenPattern = /\b(Bearer|Basic)\s+(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi;

/**
 * A dotted name with a port and no scheme (`lb.svc.cluster.local:8080`, `redis.internal:6379`): a
 * proxy's internal upstream. The last label starts with a letter and the port has two to five
 * digits, so decimals, times and ratios are not names; `main.py:42` is a file and line, kept.
 */
const hostAndPortPattern = /(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+([a-z][a-z0-9-]*):\d{2,5}(?![\w.-])/gi;
const sourceFileExtensions = new Set(['c', 'cc', 'cpp', 'cs', 'go', 'h', 'hpp', 'java', 'js', 'json', 'jsx', 'kt', 'log', 'md', 'mjs', 'php', 'py', 'rb', 'rs', 'scala', 'swift', 'toml', 'ts', 'tsx', 'txt', 'yaml', 'yml']);

/**
 * Header names whose values are secrets: the usual credential headers and any name speaking of a
 * key, token, secret or auth. Other configured headers (`anthropic-version: 2023-06-01`,
 * `OpenAI-Beta`) are ordinary values an error may quote, and are left readable.
 */
const secretHeaderName = /key|token|secret|auth/i;

/** The credential and the values of the auth-like headers the operator configured. */
function secretsOf(target: UpstreamTarget): string[] {
  const headerSecrets = Object.entries(target.headers ?? {}).flatMap(([name, value]) => (secretHeaderName.test(name) ? withoutScheme(value) : []));
  const secrets = [target.apiKey, ...headerSecrets].filter((value): value is string => value !== undefined && value.length >= 6);
  // The longest first, so a secret containing another is removed whole.
  return secrets.sort((left, right) => right.length - left.length);
}

/** A header value and, for `Bearer <token>` and the like, the token alone: an upstream may echo either. */
function withoutScheme(value: string): string[] {
  const token = /^(?:Bearer|Basic|Token)\s+(\S+)$/i.exec(value)?.[1];
  return token === undefined ? [value] : [value, token];
}

/**
 * The base URL's host, with or without its port, in any case (matching nothing without a host). Only
 * as a whole name: a host called `api` or `llm` is not replaced inside `rapid` or `fulfillment`,
 * nor in a longer name (`llm.internal`, `llm-proxy`); a full stop ending a sentence still ends it.
 */
function hostPattern(target: UpstreamTarget): RegExp {
  let hostname = '';
  try {
    hostname = new URL(target.baseUrl).hostname;
  } catch {
    // An unparsable base URL has no host to hide.
  }
  if (hostname === '') return /(?!)/g;
  return new RegExp(`(?<![\\w.-])${hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?::\\d+)?(?![\\w-]|\\.[\\w-])`, 'gi');
}
