import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, Db } from './database.ts';
import { schemaVersions } from './schema-versions.ts';

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
export async function openPostgres(url: string, schemaSql: string, { poolSize = 10, allowExitOnIdle = false }: PostgresOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    allowExitOnIdle,
    types: { getTypeParser: (id: number, format?: 'text' | 'binary') => (id === INT8 ? Number : pg.types.getTypeParser(id, format)) } as pg.CustomTypesConfig,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db, schemaSql);
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
async function migrate(db: Db, schemaSql: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS parley_schema_version (version INTEGER NOT NULL)`.execute(trx);
    const { rows } = await sql<{ version: number }>`SELECT version FROM parley_schema_version`.execute(trx);
    const current = rows[0]?.version ?? 0;
    for (const { version, sql: statements } of schemaVersions(schemaSql, 'schema.postgres.sql')) {
      if (version <= current) continue;
      await sql.raw(statements).execute(trx);
      await sql`DELETE FROM parley_schema_version`.execute(trx);
      await sql`INSERT INTO parley_schema_version (version) VALUES (${version})`.execute(trx);
    }
  });
}
