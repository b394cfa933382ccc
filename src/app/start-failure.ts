import { describeDatabaseLocation } from '../storage/describe-database-location.js';

/**
 * The gateway could not start: what it was doing (opening the database, listening on an address)
 * and the underlying error as its `cause`. The message is one line an operator can act on; the
 * cause keeps the stack for `--debug`.
 */
export class StartFailure extends Error {
  override readonly name = 'StartFailure';
}

/** Why the database could not be opened or migrated, naming it without its password. */
export function databaseStartFailure(databaseUrl: string, error: unknown): StartFailure {
  let location: string;
  try {
    location = describeDatabaseLocation(databaseUrl);
  } catch {
    location = 'at database.url';
  }
  return new StartFailure(`cannot open the database (${location}): ${innermostMessage(error)}`, { cause: error });
}

/** Why the server could not listen on `host:port`, with what to do about the usual reasons. */
export function listenStartFailure(host: string, port: number, error: unknown): StartFailure {
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'EADDRINUSE'
      ? 'the address is already in use (another process listens there; stop it or choose another port with --port N or PORT)'
      : code === 'EACCES'
        ? 'permission denied (ports below 1024 need privileges; choose another with --port N or PORT)'
        : code === 'EADDRNOTAVAIL'
          ? 'this machine has no such address (server.host)'
          : innermostMessage(error);
  return new StartFailure(`cannot listen on ${address}: ${reason}`, { cause: error });
}

/**
 * The message of the deepest cause: a migration that failed says only "migration failed", its
 * cause says "connect ECONNREFUSED 127.0.0.1:5432". Several lines are joined into one.
 */
export function innermostMessage(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error && current.cause instanceof Error; depth += 1) current = current.cause;
  return oneLine(current instanceof Error ? current.message : String(current));
}

/** A message of several lines as one, for a terminal line or a log line. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}
