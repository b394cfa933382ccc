import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../errors/gateway-error.js';

/** The client's `Idempotency-Key`, if it sent one: printable text of a sane length. */
export function idempotencyKey(incoming: IncomingMessage): string | undefined {
  const value = incoming.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(text)) {
    throw new GatewayError('invalid_request', 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.', { param: 'Idempotency-Key' });
  }
  return text;
}
