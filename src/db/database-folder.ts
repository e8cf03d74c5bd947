import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates the folders a database file's path needs, one level at a time.
 * Node's own recursive mkdir never returns under a folder that answers ENOENT
 * to every new entry (/proc): the server spun instead of saying it cannot start.
 */
export function createFoldersFor(path: string): void {
  const folder = dirname(path);
  if (folder === path || existsSync(folder)) return;
  createFoldersFor(folder);
  mkdirSync(folder);
}
