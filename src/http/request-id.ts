import { randomBytes } from 'node:crypto';

/**
 * Request ids are a random per-process prefix and a counter (24 hex digits in all): unique across
 * instances (the ledger is idempotent on them) without asking the system for randomness on every
 * request.
 */
const processPrefix = 'req_' + randomBytes(6).toString('hex');
let counter = 0;

export function newRequestId(): string {
  counter += 1;
  return processPrefix + counter.toString(16).padStart(12, '0');
}
