import { GatewayError } from './gateway-error.js';

/** A request body over the configured limit (413), however it is read: JSON or multipart. */
export function bodyTooLarge(limit: number): GatewayError {
  return new GatewayError('body_too_large', `The request body exceeds the limit of ${limit} bytes.`);
}
