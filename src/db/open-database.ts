import type { Config } from '../config.ts';
import type { Db } from './database.ts';
import { openPostgres } from './postgres.ts';

/**
 * The database the configuration names: PostgreSQL when DATABASE_URL is set,
 * else the SQLite file at DATABASE_PATH, opened with the runtime's own driver.
 */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePath'>,
  schemas: { sqlite: () => string; postgres: () => string },
  openSqlite: (path: string, schemaSql: string) => Db,
): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, schemas.postgres());
  return Promise.resolve(openSqlite(config.databasePath, schemas.sqlite()));
}
