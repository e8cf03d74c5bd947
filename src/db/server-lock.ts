import type { SqliteConnection, SqliteDriver } from './sqlite-driver.ts';

/** Another server serves the SQLite file already. */
export class FileInUse extends Error {}

/**
 * One server per SQLite file: two would each checkpoint, index and clean up
 * as if alone. The server holds the write lock of a small SQLite file beside
 * the database (`<file>-server`) for as long as it runs; the operating system
 * releases it when the process ends, however it ends, so a crash never blocks
 * the next start. That lock leaves the file readable: a second server reads
 * who holds it and names it. Returns what releases the lock.
 */
export function holdServerLock(driver: SqliteDriver, databasePath: string, holder: string): () => void {
  const lock = driver(`${databasePath}-server`);
  lock.exec('PRAGMA busy_timeout = 0');
  try {
    takeWriteLock(lock);
    lock.exec('CREATE TABLE IF NOT EXISTS holder (description TEXT NOT NULL); DELETE FROM holder');
    lock.prepare('INSERT INTO holder (description) VALUES (?)').run([holder]);
    lock.exec('COMMIT');
    // Held from here until the process ends (or the lock is released).
    takeWriteLock(lock);
  } catch (error) {
    const description = error instanceof FileInUse ? currentHolder(lock) : undefined;
    lock.close();
    if (!(error instanceof FileInUse)) throw error;
    throw new FileInUse(
      `another Parley server is serving it${description ? ` (${description})` : ''}: stop that one first; several servers on one database need PostgreSQL (DATABASE_URL)`,
    );
  }
  return () => {
    lock.exec('ROLLBACK');
    lock.close();
  };
}

function takeWriteLock(lock: SqliteConnection): void {
  try {
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    // Each driver words it its own way; SQLite's message is "database is locked".
    if (/locked|busy/i.test(String(error))) throw new FileInUse();
    throw error;
  }
}

/** What the holder wrote of itself, if it can be read now. */
function currentHolder(lock: SqliteConnection): string | undefined {
  try {
    const [row] = lock.prepare('SELECT description FROM holder').all([]) as Array<{ description: string }>;
    return row?.description;
  } catch {
    return undefined;
  }
}
