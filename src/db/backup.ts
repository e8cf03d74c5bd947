import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';

/** Writes a consistent copy of the database to `out` while the server keeps serving, or refuses saying which tool to use instead. */
export const backupTo = (db: Db, out: string): Promise<void> => dialectOf(db).backup(db, out);
