import { readFileSync } from 'node:fs';

/**
 * schema.sql beside package.json, read at start-up (Node and Deno; Bun embeds it).
 * The path holds from src/db/ and from the Node bundle in dist/node/ alike.
 */
export const readSchema = (): string => readFileSync(new URL('../../schema.sql', import.meta.url), 'utf8');
