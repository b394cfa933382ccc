import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchConfigFile, type ConfigFileWatch } from './watch-config-file.js';

const debounceMs = 150;
let directory: string;
let file: string;
let watch: ConfigFileWatch | undefined;

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'switchyard-watch-'));
  file = path.join(directory, 'switchyard.yaml');
  writeFileSync(file, 'models: []\n');
});
afterEach(() => {
  watch?.close();
  rmSync(directory, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function changesDuring(act: () => Promise<void>): Promise<number> {
  let changes = 0;
  watch = watchConfigFile(file, () => (changes += 1), { debounceMs });
  await act();
  await pause(debounceMs * 5);
  return changes;
}

describe('watchConfigFile', () => {
  it('reports a save written in several steps once', async () => {
    const changes = await changesDuring(async () => {
      writeFileSync(file, '');
      await pause(10);
      writeFileSync(file, 'models:\n');
      await pause(10);
      writeFileSync(file, 'models: [] # edited\n');
    });
    expect(changes).toBe(1);
  });

  it('sees a file replaced by a rename, as many editors save', async () => {
    const changes = await changesDuring(async () => {
      const temporary = path.join(directory, '.switchyard.yaml.swp');
      writeFileSync(temporary, 'models: [] # renamed into place\n');
      renameSync(temporary, file);
    });
    expect(changes).toBe(1);
  });

  it('keeps watching after a rename, for the next save', async () => {
    const changes = await changesDuring(async () => {
      const temporary = path.join(directory, 'next.tmp');
      writeFileSync(temporary, 'models: [] # first\n');
      renameSync(temporary, file);
      await pause(debounceMs * 4);
      writeFileSync(file, 'models: [] # second\n');
    });
    expect(changes).toBe(2);
  });

  it('ignores other files in the directory and a write of the same text', async () => {
    const changes = await changesDuring(async () => {
      writeFileSync(path.join(directory, 'switchyard.db'), 'unrelated');
      writeFileSync(file, 'models: []\n');
    });
    expect(changes).toBe(0);
  });
});
