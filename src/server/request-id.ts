import { randomBytes } from 'node:crypto';

/** A request id for headers, error bodies, logs and the ledger. */
export function newRequestId(): string {
  return 'req_' + randomBytes(12).toString('hex');
}
