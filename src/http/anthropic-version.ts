import { GatewayError } from '../errors/gateway-error.js';
import type { HeaderSource } from './request-headers.js';

/** The Messages format's version header, also accepted under the neutral name `partner-version`. */
export function anthropicVersion(headers: HeaderSource): string | undefined {
  const value = headers.get('anthropic-version') ?? headers.get('partner-version');
  if (value === null) return undefined;
  // Unknown dates are accepted (clients move faster than gateways); only the shape is checked.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
    throw new GatewayError('invalid_field', `anthropic-version: expected a date YYYY-MM-DD, got '${value}'.`, { param: 'anthropic-version' });
  }
  return value.trim();
}
