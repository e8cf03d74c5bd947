/// <reference path="./node-sqlite-types.d.ts" />
import { DatabaseSync } from 'node:sqlite';
import type { Db } from './database.ts';
import { openDb, type SqliteConnection } from './sqlite.ts';
import { prepareLocation, spreadStatement } from './sqlite-file.ts';

/** Opens the SQLite file with `node:sqlite` (Deno's built-in driver) behind kysely's interface. */
export function openNodeSqlite(path: string, schemaSql: string): Db {
  const file = prepareLocation(path);
  const connect = (): SqliteConnection => {
    const database = new DatabaseSync(path);
    return {
      exec: (sql) => database.exec(sql),
      close: () => database.close(),
      prepare(sql) {
        const statement = database.prepare(sql);
        return spreadStatement(statement, statement.columns().length > 0);
      },
    };
  };
  return openDb(connect(), schemaSql, { file }, file ? connect() : undefined);
}
