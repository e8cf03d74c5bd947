import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { fixedSql } from './fixed-sql.ts';

/*
 * SQL composed of parts — a condition shared between queries, a part present
 * only sometimes — is built with kysely's `sql` template, each value bound where
 * it is written; SQL whose text is fixed goes through fixedSql (fixed-sql.ts).
 */

/** The rows a fragment's query finds. */
export async function rowsOf<Row>(db: Db, query: RawBuilder<Row>): Promise<Row[]> {
  return (await query.execute(db)).rows;
}

/** How many rows `SELECT … FROM <from>` (a FROM and WHERE) finds; PostgreSQL answers count(*) as text. */
export async function countRows(db: Db, from: Expression<unknown>): Promise<number> {
  const [row] = await rowsOf<{ count: number | string }>(db, sql`SELECT count(*) AS count FROM ${from}`);
  return Number(row!.count);
}

/**
 * Locks a row of `table` until the transaction ends, so that transactions
 * deciding on what hangs off it go one after the other. Where write
 * transactions never overlap (no lockRows) there is nothing to do.
 */
export async function lockRow(db: Db, table: 'users' | 'apps', id: string): Promise<void> {
  const { lockRows } = dialectOf(db);
  if (lockRows) await fixedSql(db, `SELECT id FROM ${table} WHERE id = ?${lockRows}`, [id]);
}

/** ` AND <column> > <after>`, or nothing without `after`: where a keyset page starts. */
export const andAfter = (column: string, after: string | number | undefined) =>
  after === undefined ? sql`` : sql` AND ${sql.ref(column)} > ${after}`;

/**
 * The rows of `table` (an alias of conversations, memories or projects) of a
 * user's connections that the person has not disconnected (or of
 * `connectionId`, one of them), or with `changedAfter` only those stored or
 * changed after it: what an agent token reads.
 */
export const ofUserOpenConnections = (
  table: 'c' | 'm' | 'p',
  userId: string,
  { connectionId, changedAfter }: { connectionId?: string | undefined; changedAfter?: string | undefined },
) => {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  return sql<SqlBool>`${column('connection_id')} IN (SELECT id FROM connections WHERE user_id = ${userId} AND status <> 'revoked')${
    connectionId === undefined ? sql`` : sql` AND ${column('connection_id')} = ${connectionId}`
  }${changedAfter === undefined ? sql`` : sql` AND ${column('changed_at')} > ${changedAfter}`}`;
};
