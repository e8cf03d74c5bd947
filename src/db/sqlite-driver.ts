import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * One connection to a SQLite file as every runtime's driver gives it: kysely's
 * statement interface, plus `exec` for the multi-statement schema and pragmas.
 */
export interface SqliteConnection extends SqliteDatabase {
  exec(sql: string): void;
}

/** A runtime's SQLite driver: opens a connection to the file at `path`, or to `:memory:`. */
export type SqliteDriver = (path: string) => SqliteConnection;

interface SpreadStatement {
  all(...parameters: never[]): unknown[];
  run(...parameters: never[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: never[]): IterableIterator<unknown>;
}

/**
 * A connection of a driver whose statements take their parameters spread
 * (Deno's node:sqlite, bun:sqlite), as kysely's interface takes them: in one
 * array. `isReader` tells it from the statement's result columns, not its text:
 * INSERT … RETURNING reads rows too.
 */
export function spreadParameters<Statement extends SpreadStatement>(
  database: { exec(sql: string): void; close(): void; prepare(sql: string): Statement },
  isReader: (statement: Statement) => boolean,
): SqliteConnection {
  const spread = (parameters: readonly unknown[]) => parameters as never[];
  return {
    exec: (sql) => database.exec(sql),
    close: () => database.close(),
    prepare(sql): SqliteStatement {
      const statement = database.prepare(sql);
      return {
        reader: isReader(statement),
        all: (parameters) => statement.all(...spread(parameters)),
        run: (parameters) => {
          const { changes, lastInsertRowid } = statement.run(...spread(parameters));
          return { changes, lastInsertRowid };
        },
        iterate: (parameters) => statement.iterate(...spread(parameters)),
      };
    },
  };
}
