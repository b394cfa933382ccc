import { randomBytes } from 'node:crypto';
import type { AuditEntry } from './audit-log.js';

export type KeyAuditAction = 'key.create' | 'key.update' | 'key.revoke' | 'key.rotate';

/**
 * One entry of the audit log about a key. `actorKeyId` is the admin key that acted, null for the
 * command line; `details` says what changed and must never hold a secret or a hash.
 */
export function keyAuditEntry(action: KeyAuditAction, actorKeyId: string | null, targetId: string, details: Readonly<Record<string, unknown>>, at = new Date()): AuditEntry {
  return { id: 'audit_' + randomBytes(12).toString('base64url'), at, actorKeyId, action, targetId, details };
}
