import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';

/** Rows on a page of the manage pages' lists (search results, a connection's conversations). */
export const PAGE_SIZE = 20;

/** The `page` asked for: 1 unless a whole number above it, and at most what an offset can reach (an edited URL is answered, not refused). */
export const pageNumber = (c: Context<AppEnv>) =>
  Math.min(
    Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1),
    Math.floor(Number.MAX_SAFE_INTEGER / PAGE_SIZE),
  );

/** The rows of page `page`. */
export const pageRows = (page: number) => ({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
