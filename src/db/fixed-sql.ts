import { CompiledQuery } from 'kysely';
import { isPostgres, type Db } from './database.ts';

/**
 * Runs fixed SQL with bound parameters, past kysely's query builder and compiler.
 * For the queries every API request makes, building and compiling the query cost
 * more than SQLite takes to answer it; everything else uses the builder. The SQL
 * is written with `?` placeholders, numbered `$1`, `$2`… for PostgreSQL.
 */
export async function fixedSql<Row>(db: Db, sql: string, parameters: readonly unknown[]): Promise<Row[]> {
  let n = 0;
  const text = isPostgres(db) ? sql.replace(/\?/g, () => `$${++n}`) : sql;
  return (await db.executeQuery<Row>(CompiledQuery.raw(text, [...parameters]))).rows;
}

/** How many rows `SELECT … FROM <from>` (a FROM and WHERE) finds; PostgreSQL answers count(*) as text. */
export async function countRows(db: Db, from: string, parameters: readonly unknown[]): Promise<number> {
  const [row] = await fixedSql<{ count: number | string }>(db, `SELECT count(*) AS count FROM ${from}`, parameters);
  return Number(row!.count);
}
