import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';

/** Read and write for the gateway's user only: the database holds key hashes, the URL-signing secret and stored conversations. */
const ownerOnlyFile = 0o600;
const ownerOnlyDirectory = 0o700;

/**
 * Makes a SQLite database and the files SQLite keeps beside it readable by the gateway's user
 * only, before SQLite opens it. SQLite creates a new database 0644 (less the umask) but gives its
 * `-wal` and `-shm` files the database's own mode, so the database is created here first, empty
 * (which SQLite takes as a new database) and 0600. A database, `-wal` or `-shm` left with wider
 * permissions by an earlier build is narrowed. A missing directory is created 0700; an existing
 * one keeps its mode, since it may be a directory the operator shares with other things (the
 * working directory, for `sqlite:./switchyard.db`).
 */
export function ownerOnlyDatabaseFiles(filename: string): void {
  mkdirSync(path.dirname(path.resolve(filename)), { recursive: true, mode: ownerOnlyDirectory });
  createIfMissing(filename);
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) narrow(file);
}

/** 'wx' creates the file only if it is missing: an existing database is not opened for writing here. */
function createIfMissing(filename: string): void {
  try {
    closeSync(openSync(filename, 'wx', ownerOnlyFile));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function narrow(file: string): void {
  try {
    chmodSync(file, ownerOnlyFile);
  } catch (error) {
    // Absent (no -wal or -shm yet), owned by another user (who keeps the say over its mode), or on a read-only mount.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'EROFS') throw error;
  }
}
