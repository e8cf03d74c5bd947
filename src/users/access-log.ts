import { accessOfUser, countAccess, deleteAccessBefore } from '../db/access-log.ts';
import type { Owner } from '../conversations/ownership.ts';
import type { AccessChannel } from '../db/database.ts';
import { findUser } from '../db/users.ts';
import { isoTime, type Deps } from '../deps.ts';

const DAY_MS = 86_400_000;
/** How long the counts are kept: long enough to cover what the manage page tells, short enough not to become a history of its own. */
export const ACCESS_KEPT_DAYS = 90;
/** How far back the manage page tells the person. */
export const ACCESS_SHOWN_DAYS = 30;

const dayOf = (ms: number) => isoTime(ms).slice(0, 10);

/**
 * Counts a read of the user's data in the access log the person sees on their
 * manage page. Not waited for: the request needs nothing of it, and a write
 * may queue behind an import's or a purge's transaction; a failure is logged.
 */
export function recordAccess(
  deps: Pick<Deps, 'db' | 'clock' | 'log'>,
  userId: string,
  channel: AccessChannel,
  { search = false }: { search?: boolean } = {},
): void {
  countAccess(deps.db, { userId, day: dayOf(deps.clock.now()), channel, search }).catch((error) =>
    deps.log.error('access log', { error: String(error) }),
  );
}

/**
 * What the manage page says of the owner's last ACCESS_SHOWN_DAYS days, per
 * channel: on how many days, how many reads, how many searches; undefined for
 * a user with nothing stored.
 */
export async function recentAccess(deps: Pick<Deps, 'db' | 'clock'>, owner: Owner) {
  const user = await findUser(deps.db, owner.appId, owner.userRef);
  if (!user) return undefined;
  const rows = await accessOfUser(deps.db, user.id, dayOf(deps.clock.now() - (ACCESS_SHOWN_DAYS - 1) * DAY_MS));
  const summary = (channel: AccessChannel) => {
    const ofChannel = rows.filter((row) => row.channel === channel);
    return {
      days: ofChannel.length,
      reads: ofChannel.reduce((sum, row) => sum + Number(row.reads), 0),
      searches: ofChannel.reduce((sum, row) => sum + Number(row.searches), 0),
    };
  };
  return { api: summary('api'), agent: summary('agent') };
}

/** Maintenance: counts older than ACCESS_KEPT_DAYS go. */
export const deleteOldAccess = (deps: Pick<Deps, 'db' | 'clock'>) =>
  deleteAccessBefore(deps.db, dayOf(deps.clock.now() - ACCESS_KEPT_DAYS * DAY_MS));
