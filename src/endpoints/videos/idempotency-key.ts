import { GatewayError } from '../../errors/gateway-error.js';
import type { GatewayContext } from '../../http/exchange.js';

/** The client's `Idempotency-Key`, if it sent one: printable text of a sane length. */
export function idempotencyKey(context: GatewayContext): string | undefined {
  const value = context.env.incoming.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(text)) {
    throw new GatewayError('invalid_request', 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.', { param: 'Idempotency-Key' });
  }
  return text;
}
