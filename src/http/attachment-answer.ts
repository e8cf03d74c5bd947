import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { blobBytes, storedAttachmentOf, type StoredAttachment } from '../conversations/attachments.ts';
import type { AccessChannel } from '../db/database.ts';
import type { Deps } from '../deps.ts';
import { recordAccess } from '../users/access-log.ts';
import { savedName } from '../attachments/content-type.ts';
import { fileResponse, type ServedFile } from './attachment-response.ts';

/**
 * The bytes of attachment `id` of `scope` (an app, or one of its users: 404 for
 * any other's), answered as fileResponse says; a read that fails midway is
 * logged. With `channel`, the read is counted in the person's access log.
 */
export async function attachmentAnswer(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'db' | 'attachments' | 'log' | 'clock'>,
  scope: { appId: string; userRef?: string },
  id: string,
  channel?: AccessChannel,
): Promise<Response> {
  const attachment = await storedAttachmentOf(deps, scope, id);
  if (channel) recordAccess(deps, attachment.user_id, channel);
  return fileResponse(
    c,
    servedFile(attachment),
    (range) => blobBytes(deps, attachment.blob, range),
    (error) =>
      deps.log.error('attachment read failed', {
        appId: scope.appId,
        attachmentId: attachment.id,
        error: String(error),
      }),
  );
}

/** What a response says of a stored attachment's file. */
export const servedFile = ({ name, content_type, kind, blob }: StoredAttachment): ServedFile => ({
  name: savedName({ name, contentType: content_type, kind }),
  contentType: content_type,
  sniffedType: blob.content_type,
  size: blob.size,
  sha256: blob.sha256,
});
