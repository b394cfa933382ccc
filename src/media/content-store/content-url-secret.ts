import { randomBytes } from 'node:crypto';
import type { SettingsStore } from '../../storage/ports.js';

/** The settings name under which the generated secret is kept. */
export const contentUrlSecretSetting = 'content_url_secret';

/**
 * The secret that signs content URLs: the configured one when there is one; otherwise one
 * generated once and kept in the database, so URLs outlive a restart and verify on every
 * instance sharing the database. Instances starting together may each generate one; the
 * settings store keeps the first and hands it to all of them.
 */
export async function contentUrlSecret(configured: string | undefined, settings: SettingsStore): Promise<string> {
  if (configured !== undefined) return configured;
  const stored = await settings.get(contentUrlSecretSetting);
  if (stored !== undefined) return stored;
  return settings.putIfAbsent(contentUrlSecretSetting, randomBytes(32).toString('base64url'));
}
