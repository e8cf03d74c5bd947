import { Database } from 'bun:sqlite';
import { spreadParameters, type SqliteDriver } from './sqlite-driver.ts';

/** Bun's built-in SQLite driver. */
export const bunSqlite: SqliteDriver = (path) =>
  spreadParameters(new Database(path), (statement) => statement.columnNames.length > 0);
