import { readFileSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface ConfigFileWatch {
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs: editors save in several steps. */
  readonly debounceMs?: number;
  /** The directory could not be watched any longer (it was removed, say). */
  readonly onError?: (error: Error) => void;
}

/**
 * Calls `onChange` once the file's text has changed and then stayed still for a moment. The
 * directory is watched rather than the file: editors that save by writing a new file and renaming
 * it over the old one, and mounted config maps that swap a symlink, would leave a watch on the old
 * file blind. Comparing the text keeps unrelated activity in the directory from reloading.
 */
export function watchConfigFile(file: string, onChange: () => void, options: WatchOptions = {}): ConfigFileWatch {
  const debounceMs = options.debounceMs ?? 250;
  let lastText = readText(file);
  let timer: NodeJS.Timeout | undefined;
  const settle = () => {
    timer = undefined;
    const text = readText(file);
    if (text === lastText) return;
    lastText = text;
    onChange();
  };
  const watcher: FSWatcher = watch(path.dirname(path.resolve(file)), { persistent: false }, () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(settle, debounceMs);
  });
  watcher.on('error', (error) => options.onError?.(error));
  return {
    close() {
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}

/** The file's text, or undefined while it is missing or unreadable (mid-rename, say). */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
