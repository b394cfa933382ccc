import { GatewayError } from '../../errors/gateway-error.js';
import type { LedgerCursor } from '../../metering/usage-ledger.js';

/**
 * The `next_before` of `/admin/requests`: the last entry of a page, opaque to clients (base64url of
 * its time and request id) so the paging key can change without breaking them.
 */
export function encodeRecentCallsCursor(cursor: LedgerCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.getTime(), cursor.requestId]), 'utf8').toString('base64url');
}

export function decodeRecentCallsCursor(text: string): LedgerCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (Array.isArray(decoded) && decoded.length === 2 && Number.isSafeInteger(decoded[0]) && typeof decoded[1] === 'string' && decoded[1] !== '') {
    const createdAt = new Date(decoded[0] as number);
    if (!Number.isNaN(createdAt.getTime())) return { createdAt, requestId: decoded[1] };
  }
  throw new GatewayError('invalid_field', `before must be the next_before of an earlier page; got '${text.slice(0, 100)}'.`, { param: 'before' });
}
