import * as connections from '../db/connections.ts';
import * as users from '../db/users.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';

/** One user of one app: what the manage page and an import may reach, and nothing beyond. */
export interface Owner {
  appId: string;
  userRef: string;
}

/** The app's user, or 404: another app's user of the same userRef is not this one. */
export async function userOfApp(deps: Pick<Deps, 'db'>, appId: string, userRef: string) {
  const user = await users.findUser(deps.db, appId, userRef);
  if (!user) throw new ParleyError('userNotFound');
  return user;
}

/** The app's connection (revoked ones too), or 404 — also for another app's, so its existence does not show. */
export async function connectionOfApp(deps: Pick<Deps, 'db'>, appId: string, connectionId: string) {
  const connection = await connections.findConnectionOfApp(deps.db, appId, connectionId);
  if (!connection) throw new ParleyError('connectionNotFound');
  return connection;
}

/** The owner's connection (revoked ones too), or 404 as for one that does not exist. */
export async function connectionOf(deps: Pick<Deps, 'db'>, owner: Owner, connectionId: string) {
  const connection = await connectionOfApp(deps, owner.appId, connectionId);
  if (connection.user_ref !== owner.userRef) throw new ParleyError('connectionNotFound');
  return connection;
}

/** The owner's connection that is not revoked: one that may still be imported into or disconnected. */
export async function unrevokedConnectionOf(deps: Pick<Deps, 'db'>, owner: Owner, connectionId: string) {
  const connection = await connectionOf(deps, owner, connectionId);
  if (connection.status === 'revoked') throw new ParleyError('connectionRevoked');
  return connection;
}
