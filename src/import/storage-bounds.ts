import type { Config } from '../config.ts';
import { storedBytesOfApp, storedBytesOfUser } from '../db/connections.ts';
import type { Db } from '../db/database.ts';
import { ParleyError } from '../errors.ts';

/**
 * In an import's final transaction, once it has written and its connection's
 * stored bytes are brought up to date (see refreshStoredBytes): an import that
 * made it store more may not leave the user's connections storing more than
 * MAX_STORED_BYTES_PER_USER, nor the app's more than MAX_STORED_BYTES_PER_APP
 * (0: no bound). Refused, the transaction rolls back and nothing of it stays.
 * One that stores no more (a re-import of what is there) passes, over a bound
 * lowered since or not.
 */
export async function checkStorageBounds(
  db: Db,
  { maxStoredBytesPerUser, maxStoredBytesPerApp }: Pick<Config, 'maxStoredBytesPerUser' | 'maxStoredBytesPerApp'>,
  { grown, appId, userId }: { grown: number; appId: string; userId: string },
): Promise<void> {
  if (grown <= 0) return;
  if (maxStoredBytesPerUser > 0 && (await storedBytesOfUser(db, userId)) > maxStoredBytesPerUser)
    throw new ParleyError('userStorageFull');
  if (maxStoredBytesPerApp > 0 && (await storedBytesOfApp(db, appId)) > maxStoredBytesPerApp)
    throw new ParleyError('appStorageFull');
}
