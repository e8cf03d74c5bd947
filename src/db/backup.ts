import { sql } from 'kysely';
import { isPostgres, OperationRefused, type Db } from './database.ts';

/**
 * Writes a consistent copy of the SQLite database to `out` while the server
 * keeps serving (VACUUM INTO). PostgreSQL has tools of its own for this.
 */
export async function backupTo(db: Db, out: string): Promise<void> {
  if (isPostgres(db)) {
    throw new OperationRefused('backup copies the SQLite file; on PostgreSQL use its own tools, such as pg_dump --format=custom --file=parley.dump "$DATABASE_URL"');
  }
  await sql`VACUUM INTO ${out}`.execute(db);
}
