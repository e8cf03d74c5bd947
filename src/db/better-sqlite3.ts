import BetterSqlite3 from 'better-sqlite3';
import type { Db } from './database.ts';
import { openSqlite } from './dialects/sqlite-open.ts';
import { readSchema } from './schema-file.ts';
import type { SqliteDriver } from './sqlite-driver.ts';

/** Node's SQLite driver: better-sqlite3's Database already has the shape kysely expects. */
export const betterSqlite3: SqliteDriver = (path) => new BetterSqlite3(path);

/** Opens (creating its folder) the SQLite file at `path`, or `:memory:`, under Node: the tests' and scripts' database. */
export const openBetterSqlite3 = (path: string, schemaSql: string = readSchema()): Db =>
  openSqlite(betterSqlite3, path, schemaSql);
