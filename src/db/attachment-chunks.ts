import type { Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

export async function insertChunk(
  db: Db,
  chunk: { blobId: string; seq: number; startByte: number; bytes: Uint8Array },
): Promise<void> {
  await fixedSql(db, 'INSERT INTO attachment_chunks (blob_id, seq, start_byte, bytes) VALUES (?, ?, ?, ?)', [
    chunk.blobId,
    chunk.seq,
    chunk.startByte,
    chunk.bytes,
  ]);
}

/** The chunk holding byte `at` of the blob, or the first after it (by seq, `afterSeq` given). */
export async function chunkAt(
  db: Db,
  blobId: string,
  position: { at: number } | { afterSeq: number },
): Promise<{ seq: number; start_byte: number; bytes: Uint8Array } | undefined> {
  const [row] =
    'at' in position
      ? await fixedSql<{ seq: number; start_byte: number; bytes: Uint8Array }>(
          db,
          'SELECT seq, start_byte, bytes FROM attachment_chunks WHERE blob_id = ? AND start_byte <= ? ORDER BY seq DESC LIMIT 1',
          [blobId, position.at],
        )
      : await fixedSql<{ seq: number; start_byte: number; bytes: Uint8Array }>(
          db,
          'SELECT seq, start_byte, bytes FROM attachment_chunks WHERE blob_id = ? AND seq > ? ORDER BY seq LIMIT 1',
          [blobId, position.afterSeq],
        );
  return row && { ...row, start_byte: Number(row.start_byte) };
}

export async function deleteChunks(db: Db, blobId: string): Promise<void> {
  await fixedSql(db, 'DELETE FROM attachment_chunks WHERE blob_id = ?', [blobId]);
}
