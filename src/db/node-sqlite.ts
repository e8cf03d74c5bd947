/// <reference path="./node-sqlite-types.d.ts" />
import { DatabaseSync } from 'node:sqlite';
import type { Db } from './database.ts';
import { openDb } from './sqlite.ts';
import { prepareLocation, spreadStatement } from './sqlite-file.ts';

/** Opens the SQLite file with `node:sqlite` (Deno's built-in driver) behind kysely's interface. */
export function openNodeSqlite(path: string, schemaSql: string): Db {
  const file = prepareLocation(path);
  const database = new DatabaseSync(path);
  return openDb(
    {
      exec: (sql) => database.exec(sql),
      close: () => database.close(),
      prepare(sql) {
        const statement = database.prepare(sql);
        return spreadStatement(statement, statement.columns().length > 0);
      },
    },
    schemaSql,
    { file },
  );
}
