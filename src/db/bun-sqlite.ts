import { Database } from 'bun:sqlite';
import type { SqliteStatement } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDb, type Db, type SqliteConnection } from './database.ts';

/** Opens the SQLite file with Bun's built-in driver behind kysely's interface. */
export function openBunSqlite(path: string, schemaSql: string): Db {
  const file = path !== ':memory:';
  if (file) mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  const connection: SqliteConnection = {
    exec: (sql) => database.exec(sql),
    close: () => database.close(),
    prepare(sql): SqliteStatement {
      const statement = database.prepare(sql);
      return {
        // From the statement's result columns, not its text: INSERT … RETURNING reads rows too.
        reader: statement.columnNames.length > 0,
        all: (parameters) => statement.all(...(parameters as never[])),
        run: (parameters) => {
          const { changes, lastInsertRowid } = statement.run(...(parameters as never[]));
          return { changes, lastInsertRowid };
        },
        iterate: (parameters) => statement.iterate(...(parameters as never[])),
      };
    },
  };
  return openDb(connection, schemaSql, { file });
}
