import { Database } from 'bun:sqlite';
import type { Db } from './database.ts';
import { openDb } from './sqlite.ts';
import { prepareLocation, spreadStatement } from './sqlite-file.ts';

/** Opens the SQLite file with Bun's built-in driver behind kysely's interface. */
export function openBunSqlite(path: string, schemaSql: string): Db {
  const file = prepareLocation(path);
  const database = new Database(path);
  return openDb(
    {
      exec: (sql) => database.exec(sql),
      close: () => database.close(),
      prepare(sql) {
        const statement = database.prepare(sql);
        return spreadStatement(statement, statement.columnNames.length > 0);
      },
    },
    schemaSql,
    { file },
  );
}
