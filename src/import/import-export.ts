import type { IngestResult } from 'parley-sdk';
import * as connections from '../db/connections.ts';
import * as conversations from '../db/conversations.ts';
import type { Db } from '../db/database.ts';
import { adoptImportConnection, discardImportConnection } from '../db/import-connection.ts';
import * as staging from '../db/import-staging.ts';
import { knownPayloads } from '../db/attachment-staging.ts';
import * as pageSessions from '../db/page-sessions.ts';
import { nextTurn, writeTransaction } from '../db/transaction.ts';
import * as users from '../db/users.ts';
import { isoTime, type Deps } from '../deps.ts';
import { unrevokedConnectionOf } from '../conversations/ownership.ts';
import { messagesOf } from '../conversations/payload.ts';
import { ParleyError } from '../errors.ts';
import type { ExportFormat, Message } from './formats/format.ts';
import { currentlyRead, formatFor } from './formats/registry.ts';
import { localImportWorker } from './worker/import-worker.ts';
import { WorkerChannel } from './worker/worker-channel.ts';
import { RecordBatcher, type RecordBatch, type UploadOptions } from './worker/record-batcher.ts';
import { payloadItem } from './worker/conversation-reader.ts';
import { recordEvent } from '../webhooks/events.ts';
import { StagedImport } from './staging/staged-import.ts';
import { linkAttachments } from './staging/attachment-links.ts';
import { payloadKey } from './scanning/export-scanner.ts';

export interface ImportTarget {
  appId: string;
  userRef: string;
  /** The provider the caller says the file is from; the file must agree. */
  provider?: string | undefined;
  /** Import into this connection instead of the user's open one of the file's provider. */
  connectionId?: string | undefined;
  /** The hosted-page session uploading it (its token's hash): a purge that ends the session first wins, and nothing is stored. */
  pageSession?: string | undefined;
}

/** What an import answers: the SDK's IngestResult, so the two cannot drift apart. */
export type ImportResult = IngestResult;

/** Stored conversations read per query when looking for those an older reader stored. */
const REPLACE_PAGE_SIZE = 200;

/** Input is read on in slices of at most this many bytes. */
const SLICE_BYTES = 64 * 1024;

type ImportDeps = Pick<
  Deps,
  'db' | 'clock' | 'random' | 'config' | 'importWorker' | 'sourceHash' | 'erased' | 'attachments' | 'blobHash'
>;

/**
 * Whether this thread finds the upload's records (inflating, splitting, hashing,
 * decoding) for the worker, so that the two threads share the work: when none
 * of the user's conversations is stored, the worker parses every record. With
 * some stored, the upload is most likely a newer export of them — mostly
 * unchanged, nothing to parse — and the worker, idle otherwise, scans its bytes
 * itself. Either way this thread writes.
 */
const scansOnThisThread = (upload: UploadOptions) => upload.known.length === 0;

/**
 * Imports an export (a provider's zip, or its JSON or CSV file) for a user: all
 * or nothing. The conversations are found as the upload arrives and a reader —
 * in a worker of its own where the runtime gives one — parses and normalises
 * them; this thread stages what the reader makes of them out of
 * sight in small transactions (into a connection of the import's own when it
 * opens the user's: see import-connection.ts), and one final transaction moves
 * them into the connection, or gives it that one, so a failure at any point —
 * bad JSON at the end of a 1 GB file, a lost connection — leaves no trace.
 *
 * `target` is what the request names before the file; `completed` answers the
 * whole target once the file is read, keeping what `target` named (a form may
 * name fields after its file). Without a target before the file, nothing is
 * checked or looked up until then.
 */
export async function importExport(
  deps: ImportDeps,
  target: ImportTarget | undefined,
  bytes: AsyncIterable<Uint8Array>,
  completed: () => Promise<ImportTarget>,
): Promise<ImportResult> {
  // Checked before the first byte of the file is read: the provider id is known,
  // and a named connection is this app's and this user's, and not revoked.
  if (target?.provider !== undefined && !formatFor(target.provider)) throw new ParleyError('invalidProvider');
  const named =
    target?.connectionId === undefined ? undefined : await unrevokedConnectionOf(deps, target, target.connectionId);
  const expectedProvider = target?.provider ?? named?.provider;
  const { maxConversationBytes, maxExpandedBytes, maxAttachmentBytes, maxExportRecords } = deps.config;
  const where = target && { ...target, provider: expectedProvider };
  const upload: UploadOptions = {
    limits: { maxConversationBytes, maxExpandedBytes, maxAttachmentBytes, maxExportRecords },
    known: where ? currentlyRead(await staging.knownSources(deps.db, where)) : [],
    knownPayloads: where
      ? (await knownPayloads(deps.db, where)).map(({ source, size }) => payloadKey(source, size))
      : [],
  };
  const scanHere = scansOnThisThread(upload);
  // Nothing of the user's stored, no connection named: the import may open their connection.
  const owner = target?.connectionId === undefined && upload.known.length === 0 ? target : undefined;
  const staged = new StagedImport(deps, deps.random.uuid(), upload.known, owner);
  const channel = new WorkerChannel(
    (deps.importWorker ?? localImportWorker)(),
    { expectedProvider },
    scanHere ? undefined : upload,
  );
  try {
    // Payloads found here are written from here: nothing in them is for the reader.
    const write = async ({ records }: RecordBatch) => {
      const forReader = records.filter((record) => !('payload' in record || 'known' in record));
      for (const record of records)
        if ('payload' in record || 'known' in record) await staged.blobs.payload(payloadItem(record));
      // A batch of payloads alone stays here.
      if (forReader.length > 0) await channel.write({ records: forReader });
    };
    const here = scanHere ? new RecordBatcher(upload, write, deps.sourceHash) : undefined;
    const sending = (async () => {
      for await (const chunk of bytes) {
        // A large chunk (a whole body at once, from some servers) goes in slices, so batches stay small.
        for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
          const slice = chunk.subarray(at, at + SLICE_BYTES);
          await (here ? here.push(slice) : channel.writeBytes(slice));
        }
      }
      await here?.end();
      channel.end();
    })();
    // A failed upload or an unreadable file ends the reading with its error too.
    sending.catch((error) => channel.fail(error));
    for await (const items of channel.items()) for (const item of items) await staged.add(item);
    await sending;
    await staged.finish((format, group) => channel.normalize(format, group));
    const whole = await completed();
    // A provider named only after the file could not be held against it while it was read.
    if (whole.provider !== undefined && whole.provider !== staged.format!.provider)
      throw new ParleyError('invalidProvider');
    const result = await finish(deps, whole, staged.format!, staged);
    if (result.replaced > 0) deps.erased?.();
    const { replaced, ...answer } = result;
    return answer;
  } finally {
    channel.close();
    await staged.blobs.abort();
    await staging.discardStaged(deps.db, staged.importId);
    // What it wrote is people's text, in the database file now.
    if (await discardImportConnection(deps.db, staged.importId)) deps.erased?.();
  }
}

async function finish(
  deps: ImportDeps,
  target: ImportTarget,
  format: ExportFormat,
  { importId, read, unreadable, blobs, own }: StagedImport,
): Promise<ImportResult & { replaced: number }> {
  const now = isoTime(deps.clock.now());
  return writeTransaction(deps.db, async (db) => {
    if (target.pageSession !== undefined && !(await pageSessions.lockPageSession(db, target.pageSession)))
      throw new ParleyError('sessionExpired');
    let connection: { id: string };
    // Whether the import's own connection is now the user's: all its conversations are new, and written.
    let adopted = false;
    if (target.connectionId !== undefined) {
      // Checked again, under its lock: it may have been revoked while the file was uploading.
      await connections.lockConnection(db, target.connectionId);
      const named = await unrevokedConnectionOf({ db }, target, target.connectionId);
      if (named.provider !== format.provider) throw new ParleyError('invalidProvider');
      connection = named;
    } else {
      const user = await users.ensureUser(db, {
        id: deps.random.uuid(),
        app_id: target.appId,
        user_ref: target.userRef,
        created_at: now,
      });
      // Imports opening the user's connection of a provider do so one after the other.
      await users.lockUser(db, user.id);
      const open = await connections.findOpenConnection(db, user.id, format.provider);
      if (open) connection = open;
      else {
        connection = { id: own ?? deps.random.uuid() };
        adopted = own !== undefined;
        if (adopted) await adoptImportConnection(db, importId, connection.id, user.id, now);
        else
          await connections.insertConnection(db, {
            id: connection.id,
            user_id: user.id,
            provider: format.provider,
            captured_at: now,
          });
        await recordEvent(db, deps, target.appId, 'connection.created', {
          userRef: target.userRef,
          connectionId: connection.id,
          provider: format.provider,
        });
      }
      // Imports into one connection count and merge one after the other.
      await connections.lockConnection(db, connection.id);
    }
    // A conversation skipped as unchanged must still be so, under the lock.
    if ((await staging.countStaleMarkers(db, importId, connection.id)) > 0) throw new ParleyError('importConflict');
    let staged: number;
    let created: number;
    let updated = 0;
    if (adopted) staged = created = await staging.countStaged(db, importId);
    else {
      ({ staged, created } = await staging.countNewStaged(db, importId, connection.id));
      updated = (await staging.mergeStaged(db, importId, connection.id, now, own)) - created;
    }
    const replaced = format.formerIds ? await replaceFormerConversations(db, connection.id, format.formerIds) : [];
    const conversationCount = await connections.refreshConversationCount(db, connection.id);
    const attachmentCount = await linkAttachments(db, deps, {
      importId,
      format,
      staged: blobs,
      connectionId: connection.id,
      now,
    });
    for (const { id, externalId } of replaced) {
      await recordEvent(db, deps, target.appId, 'conversation.deleted', {
        userRef: target.userRef,
        connectionId: connection.id,
        conversationId: id,
        externalId,
        conversationCount,
      });
    }
    await connections.updateConnection(db, connection.id, { status: 'active', last_sync_at: now });
    const counts = {
      created,
      updated,
      unchanged: staged - created - updated,
      // Unreadable conversations, and earlier copies of an id the file repeats.
      skipped: unreadable + (read - staged),
      conversationCount,
      attachmentCount,
    };
    await recordEvent(db, deps, target.appId, 'connection.synced', {
      userRef: target.userRef,
      connectionId: connection.id,
      provider: format.provider,
      ...counts,
    });
    return {
      ok: true as const,
      userRef: target.userRef,
      connectionId: connection.id,
      provider: format.provider,
      ...counts,
      replaced: replaced.length,
    };
  });
}

/** A message as two readers of one export both write it. */
const messageKey = ({ timestamp, content }: Message) => `${timestamp}\n${content}`;

/**
 * Removes the connection's conversations stored under an older reader's ids
 * (`formerIds`) whose every message its other conversations now hold, so that a
 * re-import by the current reader leaves no copy behind. One with a message
 * found nowhere else is kept: nothing the person gave is lost. Returns those
 * removed, for the caller to announce.
 */
async function replaceFormerConversations(db: Db, connectionId: string, formerIds: RegExp) {
  // Most connections hold none: their ids alone, from the index, tell.
  if (!(await conversations.externalIdsOfConnection(db, connectionId)).some((id) => formerIds.test(id))) return [];
  const former: Array<{ id: string; externalId: string; messages: Message[] }> = [];
  const held = new Set<string>();
  for (let after: string | undefined; ; await nextTurn()) {
    const rows = await conversations.listConversationsAfter(db, connectionId, after, REPLACE_PAGE_SIZE);
    for (const row of rows) {
      const messages = messagesOf(row.payload && new TextDecoder().decode(row.payload));
      if (formerIds.test(row.external_id)) former.push({ id: row.id, externalId: row.external_id, messages });
      else for (const message of messages) held.add(messageKey(message));
    }
    if (rows.length < REPLACE_PAGE_SIZE) break;
    after = rows.at(-1)!.external_id;
  }
  const replaced = former.filter(({ messages }) => messages.every((message) => held.has(messageKey(message))));
  for (const { id } of replaced) await conversations.deleteConversation(db, id);
  return replaced;
}
