import { CompiledQuery } from 'kysely';
import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';

/**
 * Runs fixed SQL with bound parameters, past kysely's query builder and compiler.
 * For the queries every API request makes, building and compiling the query cost
 * more than SQLite takes to answer it; everything else uses the builder. The SQL
 * is written with `?` placeholders, as the dialect's driver takes them.
 */
export async function fixedSql<Row>(db: Db, sql: string, parameters: readonly unknown[]): Promise<Row[]> {
  return (await db.executeQuery<Row>(CompiledQuery.raw(dialectOf(db).placeholders(sql), [...parameters]))).rows;
}

/** How many rows `SELECT … FROM <from>` (a FROM and WHERE) finds; PostgreSQL answers count(*) as text. */
export async function countRows(db: Db, from: string, parameters: readonly unknown[]): Promise<number> {
  const [row] = await fixedSql<{ count: number | string }>(db, `SELECT count(*) AS count FROM ${from}`, parameters);
  return Number(row!.count);
}
