import { execFile, type ExecFileOptions } from 'node:child_process';

/**
 * Runs a command with its standard input closed, as the coding agents need in scripts (with an
 * open pipe they wait for piped input forever).
 */
export function runWithoutInput(file: string, args: readonly string[], options: ExecFileOptions): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { ...options, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stdout, stderr }));
      else resolve({ stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin?.end();
  });
}
