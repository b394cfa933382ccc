import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads once and again whenever `dependencies` change or `reload` is called; with `refreshMs`,
 * again that long after each answer (never while one is still on its way, so a slow server is
 * not asked twice).
 */
export function useLoad<T>(load: () => Promise<T>, dependencies: readonly unknown[], refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | undefined; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      if (current && refreshMs !== undefined) timer = setTimeout(reload, refreshMs);
    };
    setState((previous) => ({ ...previous, loading: true }));
    load()
      .then(
        (data) => current && setState({ data, error: undefined, loading: false }),
        (error: unknown) => current && setState((previous) => ({ data: previous.data, error: messageOf(error), loading: false })),
      )
      .finally(again);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [...dependencies, round]);
  return { ...state, reload };
}
