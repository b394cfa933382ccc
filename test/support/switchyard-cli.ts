import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/switchyard.js');

/**
 * A test timeout for tests that run the CLI several times, a process each: beside a full suite on
 * a slow machine one such test has taken 30 s.
 */
export const cliTestTimeoutMs = 120_000;

/** What one run of the CLI printed, and its exit code. */
export interface CliRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/** Runs `switchyard <args>` on `databaseUrl` from `cwd`; a failing run is its exit code, not a throw. */
export async function runSwitchyardCli(args: readonly string[], where: { readonly databaseUrl: string; readonly cwd: string }): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, DATABASE_URL: where.databaseUrl },
      cwd: where.cwd,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as CliRun;
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}
