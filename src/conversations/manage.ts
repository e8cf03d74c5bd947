import * as connections from '../db/connections.ts';
import * as conversations from '../db/conversations.ts';
import { forgetDeleted, rememberDeleted } from '../db/deleted-items.ts';
import { countMemories, deleteMemoriesOfConnection } from '../db/memories.ts';
import { countProjects, deleteProjectsOfConnection } from '../db/projects.ts';
import { writeTransaction } from '../db/transaction.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { recordEvent } from '../webhooks/events.ts';
import { attachmentViews } from './attachments.ts';
import { connectionOf, unrevokedConnectionOf, type Owner } from './ownership.ts';
import { messagesOf } from './payload.ts';

/** A user who never imported anything (or deleted everything) simply has none. */
export async function connectionsOf(deps: Pick<Deps, 'db'>, owner: Owner) {
  return (await connections.listConnectionsOfUserRef(deps.db, owner.appId, owner.userRef)) ?? [];
}

export async function conversationPage(
  deps: Pick<Deps, 'db'>,
  owner: Owner,
  connectionId: string,
  page: { limit: number; offset: number },
) {
  const connection = await connectionOf(deps, owner, connectionId);
  const rows = await conversations.listConversationTitles(deps.db, connection.id, page.limit, page.offset);
  return {
    connection: {
      ...connection,
      memory_count: await countMemories(deps.db, connection.id),
      project_count: await countProjects(deps.db, connection.id),
    },
    rows,
    total: connection.conversation_count,
  };
}

export async function conversationOf(deps: Pick<Deps, 'db'>, owner: Owner, conversationId: string) {
  const row = await conversations.findConversationOfUser(deps.db, owner.appId, owner.userRef, conversationId);
  if (!row) throw new ParleyError('conversationNotFound');
  return { ...row, messages: messagesOf(row.payload) };
}

/** A conversation as its page shows it: each message with its attachments. */
export async function conversationToRead(deps: Pick<Deps, 'db' | 'attachments'>, owner: Owner, conversationId: string) {
  const conversation = await conversationOf(deps, owner, conversationId);
  const attachments = await attachmentViews(deps, conversation.id);
  return {
    ...conversation,
    messages: conversation.messages.map((message, i) => ({ ...message, attachments: attachments.get(i) ?? [] })),
  };
}

/** The person deletes a conversation: no later import of it brings it back, until they disconnect its connection. */
export async function deleteConversation(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'erased'>,
  owner: Owner,
  conversationId: string,
) {
  const deleted = await writeTransaction(deps.db, async (db) => {
    const row = await conversations.findConversationOfUser(db, owner.appId, owner.userRef, conversationId);
    if (!row) throw new ParleyError('conversationNotFound');
    await rememberDeleted(db, 'conversation', row, isoTime(deps.clock.now()));
    await conversations.deleteConversationRow(db, row.id);
    const conversationCount = await connections.refreshConversationCount(db, row.connection_id);
    await connections.refreshStoredBytes(db, row.connection_id);
    await recordEvent(db, deps, owner.appId, 'conversation.deleted', {
      userRef: owner.userRef,
      connectionId: row.connection_id,
      conversationId: row.id,
      externalId: row.external_id,
      conversationCount,
      ...(await connections.besideCounts(db, row.connection_id)),
    });
    return row;
  });
  deps.erased?.();
  return deleted;
}

/** The user disconnects: the connection stays as `revoked` so the app sees it; its conversations, memories and projects go. */
export async function disconnect(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'erased'>,
  owner: Owner,
  connectionId: string,
) {
  const revoked = await writeTransaction(deps.db, async (db) => {
    const connection = await unrevokedConnectionOf({ db }, owner, connectionId);
    const deleted = await conversations.deleteConversationsOfConnection(db, connection.id);
    await deleteMemoriesOfConnection(db, connection.id);
    await deleteProjectsOfConnection(db, connection.id);
    // A later import of the same export brings back everything: the person starts afresh.
    await forgetDeleted(db, connection.id);
    await connections.refreshConversationCount(db, connection.id);
    await connections.refreshStoredBytes(db, connection.id);
    await connections.updateConnection(db, connection.id, { status: 'revoked' });
    await recordEvent(db, deps, owner.appId, 'connection.revoked', {
      userRef: owner.userRef,
      connectionId,
      conversationsDeleted: deleted,
    });
    return connection;
  });
  deps.erased?.();
  return revoked;
}
