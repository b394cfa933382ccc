import { GatewayError } from '../errors/gateway-error.js';

/** An upstream body that should be JSON; anything else is the upstream's fault, reported as such. */
export function parseUpstreamJson(text: string, code: 'upstream_invalid_response' | 'upstream_malformed_answer' = 'upstream_invalid_response'): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the body, which may be a proxy's page naming internal hosts.
    throw new GatewayError(code, 'The upstream answered with a body that is not JSON.');
  }
}
