import BetterSqlite3 from 'better-sqlite3';
import type { Db } from './database.ts';
import { openDb } from './sqlite.ts';
import { readSchema } from './schema-file.ts';
import { prepareLocation } from './sqlite-file.ts';

/** Opens (creating its folder) the SQLite file at `path`, or `:memory:`, under Node. */
export function openBetterSqlite3(path: string, schemaSql: string = readSchema()): Db {
  const file = prepareLocation(path);
  // better-sqlite3's Database already has the shape kysely expects.
  return openDb(new BetterSqlite3(path), schemaSql, { file }, file ? new BetterSqlite3(path) : undefined);
}
