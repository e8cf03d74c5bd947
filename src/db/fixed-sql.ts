import { CompiledQuery } from 'kysely';
import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';

/**
 * Runs fixed SQL with bound parameters, past kysely's query builder and compiler.
 * For the queries every API request makes, building and compiling the query cost
 * more than SQLite takes to answer it; everything else uses the builder. The SQL
 * is written with `?` placeholders, as the dialect's driver takes them, and its
 * text is the same every time but for a row or a list repeated: SQL composed of
 * parts is built from fragments instead (sql-fragments.ts).
 */
export async function fixedSql<Row>(db: Db, sql: string, parameters: readonly unknown[]): Promise<Row[]> {
  return (await db.executeQuery<Row>(CompiledQuery.raw(dialectOf(db).placeholders(sql), [...parameters]))).rows;
}
