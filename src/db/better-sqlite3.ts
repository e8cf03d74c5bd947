import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openDb, type Db } from './database.ts';

export const schemaSql = (): string => readFileSync(new URL('../../schema.sql', import.meta.url), 'utf8');

/** Opens (creating its folder) the SQLite file at `path`, or `:memory:`, under Node. */
export function openBetterSqlite3(path: string): Db {
  const file = path !== ':memory:';
  if (file) mkdirSync(dirname(path), { recursive: true });
  return openDb(new BetterSqlite3(path), schemaSql(), { file });
}
