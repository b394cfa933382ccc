/**
 * The admin key the console signs in with, kept only in sessionStorage: it is gone when the tab
 * closes, never shared with other tabs and never sent anywhere but this gateway's own API.
 */
const storageName = 'switchyard.admin-key';

export function savedAdminKey(): string | null {
  return sessionStorage.getItem(storageName);
}

export function saveAdminKey(key: string): void {
  sessionStorage.setItem(storageName, key);
}

export function forgetAdminKey(): void {
  sessionStorage.removeItem(storageName);
}
