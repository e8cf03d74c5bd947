import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SqliteStatement } from 'kysely';

/** Creates the database file's folder; false for an in-memory database. */
export function prepareLocation(path: string): boolean {
  if (path === ':memory:') return false;
  mkdirSync(dirname(path), { recursive: true });
  return true;
}

interface SpreadStatement {
  all(...parameters: never[]): unknown[];
  run(...parameters: never[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: never[]): IterableIterator<unknown>;
}

/**
 * kysely's statement interface over a driver whose statements take their
 * parameters spread (Deno's node:sqlite, bun:sqlite). `reader` comes from the
 * statement's result columns, not its text: INSERT … RETURNING reads rows too.
 */
export function spreadStatement(statement: SpreadStatement, reader: boolean): SqliteStatement {
  const spread = (parameters: readonly unknown[]) => parameters as never[];
  return {
    reader,
    all: (parameters) => statement.all(...spread(parameters)),
    run: (parameters) => {
      const { changes, lastInsertRowid } = statement.run(...spread(parameters));
      return { changes, lastInsertRowid };
    },
    iterate: (parameters) => statement.iterate(...spread(parameters)),
  };
}
