import { GatewayError } from '../errors/gateway-error.js';

/** An upstream body that should be JSON; anything else is the upstream's fault, reported as such. */
export function parseUpstreamJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new GatewayError('upstream_invalid_response', 'The upstream answered with a body that is not JSON.', { cause: error });
  }
}
