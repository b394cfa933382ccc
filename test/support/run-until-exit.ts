import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/switchyard.js');

/** How a `switchyard` run that was expected to fail ended, and how long it took. */
export interface FailedRun {
  /** The exit code; null when it had to be killed (it kept running). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly elapsedMs: number;
}

/**
 * Runs `switchyard <args>` from `cwd` with only PATH and `environment` set, and waits for it to
 * exit by itself. A process still alive after `killAfterMs` is killed and reported with code null:
 * a start that fails must end the process, not leave it sitting there.
 */
export function runUntilExit(args: readonly string[], options: { cwd: string; environment?: Record<string, string>; killAfterMs?: number }): Promise<FailedRun> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, options.killAfterMs ?? 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: killed ? null : code, stdout, stderr, elapsedMs: performance.now() - startedAt });
    });
  });
}

/** The non-empty lines a run wrote to stdout and stderr together. */
export function outputLines(run: FailedRun): string[] {
  return `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.trim() !== '');
}
