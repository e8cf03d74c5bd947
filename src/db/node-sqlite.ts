/// <reference path="./node-sqlite-types.d.ts" />
import { DatabaseSync } from 'node:sqlite';
import { spreadParameters, type SqliteDriver } from './sqlite-driver.ts';

/** `node:sqlite`: Deno's built-in SQLite driver. */
export const nodeSqlite: SqliteDriver = (path) =>
  spreadParameters(new DatabaseSync(path), (statement) => statement.columns().length > 0);
