import type { DialectAdapter, Expression, Dialect as KyselyDialect, RawBuilder, SqlBool } from 'kysely';
import type { Db } from '../database.ts';

/** The schema files beside package.json, one per database (each dialect names its own). */
export type SchemaFile = 'schema.sql' | 'schema.postgres.sql';

/** Which connections an index catch-up looks at: one, one user's of one app, or every one. */
export type IndexScope = { connectionId: string } | { appId: string; userRef: string } | undefined;

/**
 * Every way the databases Parley runs on differ, stated once per database
 * (dialects/sqlite-dialect.ts, dialects/postgres.ts): the rest of src/db/ writes its SQL
 * once and asks a handle's dialect (`dialectOf`) where they part; nothing above
 * src/db/ knows which database it is. A fragment that carries a value is a
 * kysely `sql` fragment, the value bound where it is written; one that only
 * wraps a column (or a `?` of fixed SQL, see fixed-sql.ts) is text.
 */
export interface DatabaseDialect {
  /** The schema file whose `-- version N` sections bring this database up to date. */
  readonly schemaFile: SchemaFile;
  /** Fixed SQL written with `?` placeholders, as this database's driver numbers them. */
  placeholders(sql: string): string;
  /** A stored payload `column` as its UTF-8 bytes (what the API splices into answers). */
  payloadBytes(column: string): string;
  /** A stored payload `column` as text. */
  payloadText(column: string): string;
  /** How many messages a stored payload `column` holds (0 without one), read by the database: a summary sends no payload. */
  messageCount(column: string): string;
  /** An import's staged payload text `column` as the conversations table stores it. */
  storedPayload(column: string): string;
  /** A query answering the database's size in bytes as `bytes`. */
  readonly databaseSize: string;
  /** The statement that begins a write transaction (see writeTransaction). */
  readonly beginWrite: string;
  /** What a SELECT in a write transaction ends with to lock the rows it reads until the transaction ends. */
  readonly lockRows: string;
  /**
   * Rows a long write in a transaction (a purge's deletes, an import's merge)
   * takes per statement, the event loop answering other requests in between; or
   * undefined: one statement, the database's readers never waiting for it.
   */
  readonly writeBatch: { delete: number; merge: number } | undefined;
  /**
   * The FROM and WHERE that find the conversations, as `c`, within `scope` (a
   * condition on `c`) that match the words of a search (see searchWords), and
   * the ORDER BY that ranks them.
   */
  searchMatches(
    words: readonly string[],
    scope: Expression<SqlBool>,
  ): { from: RawBuilder<unknown>; order: RawBuilder<unknown> };
  /**
   * Indexes for search what the database stored but left unindexed (in the
   * connections of `scope`, every one without it), stopping between two batches
   * once `signal` aborts; what is left is done by the next call.
   */
  indexPending(db: Db, scope: IndexScope, signal?: AbortSignal): Promise<void>;
  /** Copies what a write-ahead log holds into the database proper (`erasing`: and empties the log); whether it finished. */
  checkpoint(db: Db, erasing: boolean): Promise<boolean>;
  /** Whether `error` says the database waited too long for another connection's write: the request may simply be tried again. */
  isBusy(error: unknown): boolean;
  /** Writes a consistent copy of the database to the file `out` while it serves, or refuses (OperationRefused) saying what to use instead. */
  backup(db: Db, out: string): Promise<void>;
}

/** kysely's adapter, carrying the dialect of the database it speaks to. */
interface CarryingAdapter extends DialectAdapter {
  readonly parleyDialect?: DatabaseDialect;
}

/**
 * kysely's dialect for a database, its adapter carrying Parley's: every handle
 * to the database, a transaction's too, shares the adapter, so any handle finds
 * its dialect at no cost per query.
 */
export function withDialect(kysely: KyselyDialect, dialect: DatabaseDialect): KyselyDialect {
  return {
    createDriver: () => kysely.createDriver(),
    createQueryCompiler: () => kysely.createQueryCompiler(),
    createIntrospector: (db) => kysely.createIntrospector(db),
    createAdapter: () => Object.assign(kysely.createAdapter(), { parleyDialect: dialect }),
  };
}

/** The dialect of the database `db` speaks to. */
export function dialectOf(db: Db): DatabaseDialect {
  const dialect = (db.getExecutor().adapter as CarryingAdapter).parleyDialect;
  if (!dialect) throw new Error('a database handle opened without a dialect (see openDatabase)');
  return dialect;
}

/** Whether `error` is the database saying it waited too long for another's write (see isBusy): the client may try again. */
export const isDatabaseBusy = (db: Db, error: unknown): boolean => dialectOf(db).isBusy(error);
