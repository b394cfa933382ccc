import { useEffect, useState } from 'preact/hooks';

/** Pages live under /console; the gateway answers every path there with the app, so links and reloads work. */
export const base = '/console';

const listeners = new Set<() => void>();
addEventListener('popstate', () => listeners.forEach((listener) => listener()));

export function navigate(path: string): void {
  history.pushState(null, '', `${base}${path}`);
  listeners.forEach((listener) => listener());
  scrollTo(0, 0);
}

function currentPath(): string {
  const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) : '/';
  return path === '' ? '/' : path;
}

/** The page path below /console ("/", "/keys"), following links and the back button. */
export function useRoute(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const listener = () => setPath(currentPath());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return path;
}
