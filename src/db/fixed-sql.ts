import { CompiledQuery } from 'kysely';
import type { Db } from './database.ts';

/**
 * Runs fixed SQL with bound parameters, past kysely's query builder and compiler.
 * For the queries every API request makes, building and compiling the query cost
 * more than SQLite takes to answer it; everything else uses the builder.
 */
export async function fixedSql<Row>(db: Db, sql: string, parameters: readonly unknown[]): Promise<Row[]> {
  return (await db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]))).rows;
}
