import * as connections from '../db/connections.ts';
import * as staging from '../db/import-staging.ts';
import { writeTransaction } from '../db/transaction.ts';
import * as users from '../db/users.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { isObject, type ExportFormat, type Json } from './conversation.ts';
import { readExportRecords, type SourcedRecord } from './export-reader.ts';
import { EXPORT_FORMATS, formatFor } from './formats.ts';
import { recordEvent } from '../webhooks/events.ts';
import { unrecognizedExport } from './import-errors.ts';
import { StagedImport } from './staged-import.ts';

export interface ImportTarget {
  appId: string;
  userRef: string;
  /** The provider the caller says the file is from; the file must agree. */
  provider?: string | undefined;
  /** Import into this connection instead of the user's open one of the file's provider. */
  connectionId?: string | undefined;
}

export interface ImportResult {
  ok: true;
  userRef: string;
  connectionId: string;
  provider: string;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  conversationCount: number;
}

type ImportDeps = Pick<Deps, 'db' | 'clock' | 'random' | 'config'>;

/** Records seen before any is recognised are held; a file of only such is not an export. */
const MAX_UNRECOGNISED_HELD = 100;

async function requireTargetConnection(db: Deps['db'], target: ImportTarget) {
  const connection = await connections.findConnectionOfApp(db, target.appId, target.connectionId!);
  if (!connection || connection.user_ref !== target.userRef) throw new ApiError('connectionNotFound');
  if (connection.status === 'revoked') throw new ApiError('connectionRevoked');
  return connection;
}

/**
 * Imports an export (a provider's zip, or its JSON or CSV file) for a user: all
 * or nothing. Conversations are normalised as they stream in and staged out of
 * sight in small transactions; one final transaction moves them into the
 * connection, so a failure at any point — bad JSON at the end of a 1 GB file, a
 * lost connection — leaves no trace.
 */
export async function importExport(deps: ImportDeps, target: ImportTarget, bytes: AsyncIterable<Uint8Array>): Promise<ImportResult> {
  // Checked before the first byte of the file is read: the provider id is known,
  // and a named connection is this app's and this user's, and not revoked.
  if (target.provider !== undefined && !formatFor(target.provider)) throw new ApiError('invalidProvider');
  const named = target.connectionId === undefined ? undefined : await requireTargetConnection(deps.db, target);
  const expected = target.provider ?? named?.provider;
  const staged = new StagedImport(deps, deps.random.uuid());
  let format: ExportFormat | undefined;
  let held: Array<SourcedRecord & { value: Json }> = [];

  const settle = async (chosen: ExportFormat) => {
    if (expected !== undefined && chosen.provider !== expected) throw new ApiError('invalidProvider');
    format = chosen;
    for (const { value, source } of held) await staged.add(value, source, chosen);
    held = [];
  };

  try {
    for await (const records of readExportRecords(bytes, deps.config, EXPORT_FORMATS)) {
      for (const { value, source } of records) {
        if (!isObject(value)) {
          staged.unreadable++;
          continue;
        }
        const recognised = EXPORT_FORMATS.find((candidate) => candidate.recognizes(value));
        if (format) {
          // A record of another provider inside this export cannot be read as this one.
          if (recognised && recognised !== format) staged.unreadable++;
          else await staged.add(value, source, format);
        } else if (recognised) {
          await settle(recognised);
          await staged.add(value, source, recognised);
        } else if (held.push({ value, source }) > MAX_UNRECOGNISED_HELD) {
          throw unrecognizedExport();
        }
      }
    }
    if (!format) {
      // An empty export is a user with no conversations, if the caller names the
      // provider; a file whose records no format recognises is no export.
      const fallback = expected === undefined ? undefined : formatFor(expected);
      if (!fallback || held.length > 0 || staged.unreadable > 0) throw unrecognizedExport();
      await settle(fallback);
    }
    await staged.finish(format!);
    return await finish(deps, target, format!, staged);
  } finally {
    await staging.discardStaged(deps.db, staged.importId);
  }
}

async function finish(
  deps: ImportDeps,
  target: ImportTarget,
  format: ExportFormat,
  { importId, read, unreadable }: StagedImport,
): Promise<ImportResult> {
  const now = isoTime(deps.clock.now());
  return writeTransaction(deps.db, async (db) => {
    let connection;
    if (target.connectionId !== undefined) {
      // Checked again, under its lock: it may have been revoked while the file was uploading.
      await connections.lockConnection(db, target.connectionId);
      connection = await requireTargetConnection(db, target);
      if (connection.provider !== format.provider) throw new ApiError('invalidProvider');
    } else {
      const user = await users.ensureUser(db, { id: deps.random.uuid(), app_id: target.appId, user_ref: target.userRef, created_at: now });
      const id = deps.random.uuid();
      if (await connections.insertOpenConnection(db, { id, user_id: user.id, provider: format.provider, captured_at: now })) {
        await recordEvent(db, deps, target.appId, 'connection.created', { userRef: target.userRef, connectionId: id, provider: format.provider });
        connection = { id };
      } else {
        connection = (await connections.findOpenConnection(db, user.id, format.provider))!;
      }
      // Imports into one connection count and merge one after the other.
      await connections.lockConnection(db, connection.id);
    }
    const { staged, created } = await staging.countNewStaged(db, importId, connection.id);
    const updated = (await staging.mergeStaged(db, importId, connection.id, now)) - created;
    const conversationCount = await connections.refreshConversationCount(db, connection.id);
    await connections.updateConnection(db, connection.id, { status: 'active', last_sync_at: now });
    const counts = {
      created,
      updated,
      unchanged: staged - created - updated,
      // Unreadable conversations, and earlier copies of an id the file repeats.
      skipped: unreadable + (read - staged),
      conversationCount,
    };
    await recordEvent(db, deps, target.appId, 'connection.synced', { userRef: target.userRef, connectionId: connection.id, provider: format.provider, ...counts });
    return { ok: true as const, userRef: target.userRef, connectionId: connection.id, provider: format.provider, ...counts };
  });
}
