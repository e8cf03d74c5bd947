import { sql } from 'kysely';
import type { AttachmentStoreName, Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';

/** What GET /metrics reads from the database at each scrape, rather than counting as it happens. */
export interface ServerFigures {
  databaseBytes: number;
  /** Every store, 0 where nothing is kept: sizes as the rows record them (S3 is not asked). */
  attachmentBytes: Array<{ store: AttachmentStoreName; bytes: number }>;
  webhookDeliveries: { pending: number; failed: number };
  openUploads: number;
}

const STORES: readonly AttachmentStoreName[] = ['database', 's3'];

/**
 * A handful of aggregate queries, each on an index or a small table except the
 * blobs' sizes, which reads one row per stored file: a scrape every few seconds
 * of a database of millions of files is better served less often.
 */
export async function serverFigures(db: Db): Promise<ServerFigures> {
  const [size, blobs, deliveries, uploads] = await Promise.all([
    sql.raw<{ bytes: number | string }>(dialectOf(db).databaseSize).execute(db),
    db
      .selectFrom('attachment_blobs')
      .select((eb) => ['store', eb.fn.sum<number | string>('size').as('bytes')])
      .groupBy('store')
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', ['pending', 'failed'])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  const delivered = (status: string) => Number(deliveries.find((row) => row.status === status)?.count ?? 0);
  return {
    databaseBytes: Number(size.rows[0]?.bytes ?? 0),
    attachmentBytes: STORES.map((store) => ({
      store,
      bytes: Number(blobs.find((row) => row.store === store)?.bytes ?? 0),
    })),
    webhookDeliveries: { pending: delivered('pending'), failed: delivered('failed') },
    openUploads: Number(uploads.count),
  };
}
