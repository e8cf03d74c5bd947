import type { Config } from '../config.ts';
import type { AttachmentStoreName, Db } from '../db/database.ts';
import type { AttachmentStore } from './attachment-store.ts';
import { databaseStore } from './database-store.ts';
import { s3Store, type ObjectStore } from './s3-store.ts';

/**
 * The stores of attachment bytes. Itself the store new blobs go to (`name`,
 * `create`, `read`): S3 when ATTACHMENTS_URL names a bucket, else the database.
 * A blob already written stays where its row says (`store`), whichever that is:
 * `forBlob` gives that store, so setting or unsetting ATTACHMENTS_URL moves no
 * bytes. A row does not name its bucket: blobs in S3 are read from the one
 * ATTACHMENTS_URL names now (see docs/attachments.md, "Changing stores").
 */
export interface AttachmentStores extends AttachmentStore {
  /** The store holding a blob whose row names `store`. */
  forBlob(store: AttachmentStoreName): AttachmentStore;
  /** The S3 store ATTACHMENTS_URL names (the deletion queue deletes there); undefined without it. */
  readonly objects: ObjectStore | undefined;
}

export function attachmentStores(db: Db, config: Pick<Config, 'attachmentsS3'>): AttachmentStores {
  const database = databaseStore(db);
  const objects = config.attachmentsS3 && s3Store(config.attachmentsS3);
  const current: AttachmentStore = objects ?? database;
  return {
    name: current.name,
    create: (blobId) => current.create(blobId),
    read: (blobId, range) => current.read(blobId, range),
    objects,
    forBlob(store) {
      if (store === 'database') return database;
      if (!objects)
        throw new Error('A blob is kept in S3, but ATTACHMENTS_URL is not set: set it to the bucket that holds it');
      return objects;
    },
  };
}
