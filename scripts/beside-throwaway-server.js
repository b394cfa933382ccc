/**
 * What `with-postgres.js` and `with-redis.js` share: run a command beside a throwaway server that
 * the script starts, hand the command the server's address in its environment, make the command's
 * exit code ours, and always stop the server and remove its directory — on SIGINT/SIGTERM too.
 * Node built-ins only: these scripts run before anything is built.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';

/** Thrown to end the script with `code` after a message has been written. */
export class ExitRequest extends Error {
  constructor(code) {
    super(`exit ${code}`);
    this.code = code;
  }
}

/** Writes `label: message` and answers the ExitRequest to throw. */
export function failure(label, message) {
  process.stderr.write(`${label}: ${message}\n`);
  return new ExitRequest(1);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const delay = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export function readLog(logFile) {
  try {
    return readFileSync(logFile, 'utf8').trim();
  } catch {
    return '(no server log)';
  }
}

export function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * Runs `process.argv` beside a server. `service.start()` starts it and resolves to the variables to
 * add to the command's environment; `service.stop()` stops it; `service.killNow()` kills it at once
 * (the last resort on an exit that skipped the clean-up); `service.temporaryDirectory()` is what to
 * remove afterwards.
 */
export function runBesideServer(label, service) {
  let command;
  let cleanedUp = false;
  let cleaning;

  /** Idempotent, and concurrent callers share one run, so the directory never goes before the server. */
  const cleanUp = () => {
    cleaning ??= (async () => {
      await service.stop();
      removeDirectory(service.temporaryDirectory());
      cleanedUp = true;
    })();
    return cleaning;
  };

  const runCommand = (argv, environment) =>
    new Promise((resolve) => {
      command = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env: { ...process.env, ...environment } });
      command.once('error', (error) => {
        process.stderr.write(`${label}: could not run ${argv[0]}: ${error.message}\n`);
        resolve(127);
      });
      command.once('exit', (code, signalName) => {
        command = undefined;
        resolve(code ?? 128 + (os.constants.signals[signalName] ?? 0));
      });
    });

  let interrupted = false;
  for (const signalName of ['SIGINT', 'SIGTERM']) {
    process.on(signalName, () => {
      if (command !== undefined && !interrupted) {
        // Let the command wind down; the normal path then stops the server and cleans up.
        interrupted = true;
        command.kill(signalName);
        return;
      }
      void cleanUp().finally(() => process.exit(128 + os.constants.signals[signalName]));
    });
  }
  // Last resort if something exits without going through cleanUp (e.g. process.exit elsewhere).
  process.on('exit', () => {
    if (cleanedUp) return;
    service.killNow();
    removeDirectory(service.temporaryDirectory());
  });

  const main = async () => {
    const argv = process.argv.slice(2);
    if (argv.length === 0) {
      process.stderr.write(`usage: node scripts/${label}.js <command> [args...]\n`);
      return 2;
    }
    try {
      return await runCommand(argv, await service.start());
    } finally {
      await cleanUp();
    }
  };

  main().then(
    (code) => process.exit(code),
    (error) => {
      if (!(error instanceof ExitRequest)) process.stderr.write(`${label}: ${error?.stack ?? error}\n`);
      void cleanUp().finally(() => process.exit(error instanceof ExitRequest ? error.code : 1));
    },
  );
}

function removeDirectory(directory) {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
}
