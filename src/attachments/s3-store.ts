import { AwsClient } from 'aws4fetch';
import { concatBytes } from '../bytes.ts';
import type { S3Config } from '../config.ts';
import type { AttachmentStore, BlobWriter, ByteRange } from './attachment-store.ts';

/**
 * Bytes per uploaded part: S3 takes parts of 5 MiB and more (but the last), at
 * most 10,000 of them, so a blob of up to 78 GiB fits.
 */
export const PART_BYTES = 8 * 1024 * 1024;

/**
 * Parts of one blob uploading at once, while the next fills: one connection to
 * S3 is slower than the bytes arrive, a few are not; a writer holds this many
 * parts and one more.
 */
const PARTS_IN_FLIGHT = 2;

/** Object storage: attachment bytes as objects, which the deletion queue removes by blob id. */
export interface ObjectStore extends AttachmentStore {
  /** Removes the blob's object; done already when there is none. */
  delete(blobId: string): Promise<void>;
}

/**
 * Attachment bytes as objects `<prefix>/<blob id>` in S3-compatible storage,
 * through fetch and a SigV4 signer (aws4fetch) that run on every runtime. A blob
 * smaller than a part is one PUT; a larger one a multipart upload, part by part.
 */
export function s3Store(config: S3Config): ObjectStore {
  const s3 = new S3Objects(config);
  return {
    name: 's3',
    create: (blobId) => new ObjectWriter(s3, s3.key(blobId)),
    read: (blobId, range) => s3.read(s3.key(blobId), range),
    delete: (blobId) => s3.delete(s3.key(blobId)),
  };
}

/** The few S3 requests the store makes, signed, each checked for its answer. */
class S3Objects {
  private readonly client: AwsClient;

  constructor(private readonly config: S3Config) {
    // A few retries of a 5xx or 429 (S3's SlowDown) before the error is the caller's.
    this.client = new AwsClient({
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      sessionToken: config.sessionToken,
      service: 's3',
      region: config.region,
      retries: 3,
    });
  }

  key(blobId: string): string {
    return this.config.prefix === '' ? blobId : `${this.config.prefix}/${blobId}`;
  }

  /** Sends a request; the response when its status is 2xx (or `alsoOk`), else an error saying what S3 said. */
  async send(what: string, key: string, query: string, init: RequestInit, alsoOk: number[] = []): Promise<Response> {
    const response = await this.client.fetch(`${objectUrl(this.config, key)}${query}`, init);
    if (response.ok || alsoOk.includes(response.status)) return response;
    throw new Error(`S3 ${what} of ${key} failed: ${response.status} ${s3Error(await response.text())}`);
  }

  async put(key: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    await (await this.send('PUT', key, '', { method: 'PUT', body: bytes })).body?.cancel();
  }

  async startUpload(key: string): Promise<string> {
    const answer = await (await this.send('multipart upload start', key, '?uploads', { method: 'POST' })).text();
    const uploadId = xmlValue(answer, 'UploadId');
    if (!uploadId) throw new Error(`S3 multipart upload start of ${key} answered no UploadId`);
    return uploadId;
  }

  /** Uploads part `number` (from 1); its ETag, which completing the upload names. */
  async putPart(key: string, uploadId: string, number: number, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
    const response = await this.send(
      `part ${number} upload`,
      key,
      `?partNumber=${number}&uploadId=${encodeURIComponent(uploadId)}`,
      { method: 'PUT', body: bytes },
    );
    await response.body?.cancel();
    const etag = response.headers.get('ETag');
    if (!etag) throw new Error(`S3 part ${number} upload of ${key} answered no ETag`);
    return etag;
  }

  async completeUpload(key: string, uploadId: string, etags: string[]): Promise<void> {
    const parts = etags
      .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`)
      .join('');
    const response = await this.send('multipart upload completion', key, `?uploadId=${encodeURIComponent(uploadId)}`, {
      method: 'POST',
      body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`,
    });
    // S3 may answer 200 and then fail the completion in the body it streams.
    const answer = await response.text();
    if (answer.includes('<Error>'))
      throw new Error(`S3 multipart upload completion of ${key} failed: ${s3Error(answer)}`);
  }

  /** Drops the upload and the parts it holds; one S3 has dropped already (404) is done. */
  async abortUpload(key: string, uploadId: string): Promise<void> {
    const response = await this.send(
      'multipart upload abort',
      key,
      `?uploadId=${encodeURIComponent(uploadId)}`,
      { method: 'DELETE' },
      [404],
    );
    await response.body?.cancel();
  }

  /** Deletes the object; S3 answers 204 whether it was there or not, some servers 404 when not. */
  async delete(key: string): Promise<void> {
    await (await this.send('DELETE', key, '', { method: 'DELETE' }, [404])).body?.cancel();
  }

  async *read(key: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    if (range && range.start >= range.end) return;
    const headers: HeadersInit = range ? { Range: `bytes=${range.start}-${range.end - 1}` } : {};
    const response = await this.send('GET', key, '', { headers });
    // Bytes other than those asked for would be served as if they were: a server that answers otherwise is an error.
    if (range && !answersRange(response, range)) {
      await response.body?.cancel();
      throw new Error(
        `S3 GET of ${key} answered ${response.status} ${response.headers.get('Content-Range')} to bytes ${range.start}-${range.end - 1}`,
      );
    }
    if (!response.body) return;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      // A reader that stopped early (a client gone) ends the download too.
      await reader.cancel();
    }
  }
}

/**
 * Bytes gathered into parts: the first full part starts a multipart upload;
 * parts upload while the next fills, PARTS_IN_FLIGHT at most.
 */
class ObjectWriter implements BlobWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private uploadId: Promise<string> | undefined;
  private readonly etags: Promise<string>[] = [];

  constructor(
    private readonly s3: S3Objects,
    private readonly key: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    while (this.pendingBytes >= PART_BYTES) {
      // Back-pressure: another part goes once the earliest still uploading is in.
      await this.etags.at(-PARTS_IN_FLIGHT);
      this.sendPart(this.take(PART_BYTES));
    }
  }

  async close(): Promise<void> {
    if (!this.uploadId) {
      await this.s3.put(this.key, this.take(this.pendingBytes));
      return;
    }
    if (this.pendingBytes > 0) this.sendPart(this.take(this.pendingBytes));
    await this.s3.completeUpload(this.key, await this.uploadId, await Promise.all(this.etags));
  }

  /** Drops the upload under way, and the object, in case it was complete: whatever happened before, nothing is left. */
  async abort(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    const uploadId = await this.uploadId?.catch(() => undefined);
    if (uploadId) {
      // A part still uploading would be kept by S3 past an abort that came first.
      await Promise.allSettled(this.etags);
      await this.s3.abortUpload(this.key, uploadId);
    }
    await this.s3.delete(this.key);
  }

  /** Starts uploading the next part; its failure is seen by the next write, close, or abort. */
  private sendPart(bytes: Uint8Array<ArrayBuffer>): void {
    this.uploadId ??= this.s3.startUpload(this.key);
    const number = this.etags.length + 1;
    const etag = this.uploadId.then((uploadId) => this.s3.putPart(this.key, uploadId, number, bytes));
    // Seen when awaited; not an unhandled rejection meanwhile.
    etag.catch(() => {});
    this.etags.push(etag);
  }

  /** The first `length` bytes pending, as one array of their own (a part's body, which the request keeps). */
  private take(length: number): Uint8Array<ArrayBuffer> {
    const all = concatBytes(this.pending);
    const taken = all.slice(0, length);
    const rest = all.subarray(length);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return taken;
  }
}

/**
 * An object's URL: path-style at a configured endpoint (what S3-compatible
 * servers expect), virtual-hosted at AWS (path-style there only for a bucket
 * with dots, which no certificate of AWS's covers as a host name).
 */
export function objectUrl(config: Pick<S3Config, 'bucket' | 'endpoint' | 'region'>, key: string): string {
  const { bucket, endpoint, region } = config;
  const path = key.split('/').map(encodeURIComponent).join('/');
  const base = endpoint
    ? `${endpoint}/${bucket}`
    : bucket.includes('.')
      ? `https://s3.${region}.amazonaws.com/${bucket}`
      : `https://${bucket}.s3.${region}.amazonaws.com`;
  return `${base}/${path}`;
}

/** Whether a response holds the bytes of `range` that the object has: 206 from its start, to its end or the object's. */
function answersRange(response: Response, range: ByteRange): boolean {
  const [, first, last, size] = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('Content-Range') ?? '') ?? [];
  return (
    response.status === 206 && Number(first) === range.start && Number(last) === Math.min(range.end, Number(size)) - 1
  );
}

function xmlValue(xml: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
}

/** S3's error code and message from its XML answer, or the start of whatever else it said. */
function s3Error(body: string): string {
  const code = xmlValue(body, 'Code');
  return code ? `${code}: ${xmlValue(body, 'Message') ?? ''}` : body.slice(0, 200);
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
