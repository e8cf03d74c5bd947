import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { OperationRefused, type Database, type Db } from '../database.ts';
import { versionsToApply } from '../schema-versions.ts';
import { withDialect, type DatabaseDialect } from './dialect.ts';

/** PostgreSQL (DATABASE_URL): transactions overlap, its server runs the statements, readers never wait. */
export const postgres: DatabaseDialect = {
  schemaFile: 'schema.postgres.sql',
  placeholders(text) {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  },
  // The payload is stored as its UTF-8 bytes (bytea).
  payloadBytes: (column) => column,
  payloadText: (column) => `convert_from(${column}, 'UTF8')`,
  messageCount: (column) => `coalesce(jsonb_array_length(convert_from(${column}, 'UTF8')::jsonb -> 'messages'), 0)`,
  storedPayload: (column) => `convert_to(${column}, 'UTF8')`,
  databaseSize: 'SELECT pg_database_size(current_database()) AS bytes',
  beginWrite: 'BEGIN',
  // Transactions overlap: the work locks the rows its decisions depend on.
  lockRows: ' FOR UPDATE',
  // Statements run on its server, and its readers never wait for a writer: one statement.
  writeBatch: undefined,
  // The GIN index is on the row's own `search` column (schema.postgres.sql, version 4).
  searchMatches: (words, scope) => ({
    from: sql`conversations c CROSS JOIN to_tsquery('simple', parley_search_fold(${tsQuery(words)})) AS query
              WHERE c.search @@ query AND ${scope}`,
    order: sql`ts_rank(c.search, query) DESC`,
  }),
  // The index is a column of the row, written with it: nothing is ever left to index.
  indexPending: async () => {},
  // Nothing to copy: PostgreSQL checkpoints by itself.
  checkpoint: async () => true,
  // Its writers wait for each other's locks without a time limit.
  isBusy: () => false,
  async backup() {
    throw new OperationRefused(
      'backup copies the SQLite file; on PostgreSQL use its own tools, such as pg_dump --format=custom --file=parley.dump "$DATABASE_URL"',
    );
  },
};

/** to_tsquery's language: every word, the last also as the start of a longer one. */
const tsQuery = (words: readonly string[]) =>
  words.map((word, i) => `'${word}'${i === words.length - 1 ? ':*' : ''}`).join(' & ');

/** pg's type ids: bigint (int8), whose values Parley keeps far below 2^53. */
const INT8 = 20;
/** Any fixed number: every instance applying migrations takes this one advisory lock. */
const MIGRATION_LOCK = 7_351_840_222;

export interface PostgresOptions {
  /** Connections per instance. */
  poolSize?: number;
  /** Let the process exit while connections sit idle (tests, the CLI). */
  allowExitOnIdle?: boolean;
}

/**
 * Opens PostgreSQL at `url` through kysely's PostgresDialect and the `pg` driver,
 * and brings its schema up to date. Counts and unix-ms times come back as numbers,
 * as SQLite gives them.
 */
export async function openPostgres(
  url: string,
  schemaSql: string,
  { poolSize = 10, allowExitOnIdle = false }: PostgresOptions = {},
): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    allowExitOnIdle,
    types: {
      getTypeParser: (id: number, format?: 'text' | 'binary') =>
        id === INT8 ? Number : pg.types.getTypeParser(id, format),
    } as pg.CustomTypesConfig,
  });
  const db = new Kysely<Database>({ dialect: withDialect(new PostgresDialect({ pool }), postgres) });
  try {
    await migratePostgres(db, schemaSql);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/**
 * Applies the sections of schema.postgres.sql newer than the database's version,
 * all in one transaction with the version bump. The advisory lock makes
 * instances that start together wait for each other instead of racing.
 */
async function migratePostgres(db: Db, schemaSql: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS parley_schema_version (version INTEGER NOT NULL)`.execute(trx);
    const { rows } = await sql<{ version: number }>`SELECT version FROM parley_schema_version`.execute(trx);
    const current = rows[0]?.version ?? 0;
    for (const { version, sql: statements } of versionsToApply(schemaSql, postgres.schemaFile, current)) {
      await sql.raw(statements).execute(trx);
      await sql`DELETE FROM parley_schema_version`.execute(trx);
      await sql`INSERT INTO parley_schema_version (version) VALUES (${version})`.execute(trx);
    }
  });
}
