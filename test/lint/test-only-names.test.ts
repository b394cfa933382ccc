import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : [path.relative(sourceRoot, full)];
  });
}

/**
 * Test-only code inside src/ (contract suites shared by two implementations, fixture readers) ends
 * in `.test-support.ts`, tests in `.test.ts`: the build, the package and the lint exemptions each
 * leave them out with one glob (`*.test*.ts`), so a new support file needs no list updated.
 */
describe('test-only code in src/', () => {
  it('is named *.test.ts or *.test-support.ts, so one glob keeps it out of the build', () => {
    const misnamed = sourceFiles(sourceRoot).filter((file) => /(test|support|contract|fixture)/i.test(path.basename(file)) && !/\.test(-support)?\.ts$/.test(file));
    expect(misnamed).toEqual([]);
  });
});
