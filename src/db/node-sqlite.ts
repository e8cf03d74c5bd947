/// <reference path="./node-sqlite-types.d.ts" />
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SqliteStatement } from 'kysely';
import { openDb, type Db, type SqliteConnection } from './database.ts';

/** Opens the SQLite file with `node:sqlite` (Deno's built-in driver) behind kysely's interface. */
export function openNodeSqlite(path: string, schemaSql: string): Db {
  const file = path !== ':memory:';
  if (file) mkdirSync(dirname(path), { recursive: true });
  const database = new DatabaseSync(path);
  const connection: SqliteConnection = {
    exec: (sql) => database.exec(sql),
    close: () => database.close(),
    prepare(sql): SqliteStatement {
      const statement = database.prepare(sql);
      return {
        // From the statement's result columns, not its text: INSERT … RETURNING reads rows too.
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...(parameters as never[])),
        run: (parameters) => statement.run(...(parameters as never[])),
        iterate: (parameters) => statement.iterate(...(parameters as never[])),
      };
    },
  };
  return openDb(connection, schemaSql, { file });
}
