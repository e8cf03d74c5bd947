import { readFileSync } from 'node:fs';

/**
 * A schema file beside package.json (schema.sql, schema.postgres.sql), read at
 * start-up (Node and Deno; Bun embeds them). The path holds from src/db/ and from
 * the Node bundle in dist/node/ alike.
 */
export const readSchema = (file: 'schema.sql' | 'schema.postgres.sql' = 'schema.sql'): string =>
  readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
