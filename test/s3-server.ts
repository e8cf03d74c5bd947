/**
 * A real S3-compatible server for the tests, from npm: `@20minutes/s3rver` (the
 * kept fork of s3rver), on a free port of 127.0.0.1 with its objects in a fresh
 * folder, removed afterwards. It checks SigV4 signatures and serves objects,
 * ranges and multipart uploads. One request it lacks, AbortMultipartUpload, is
 * answered here as S3 answers it (the upload and its parts removed; 404 for one
 * unknown), from the folder where s3rver keeps uploads under way: so a test
 * sees which uploads are left open.
 */
import S3rver from '@20minutes/s3rver';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Config } from '../src/config.ts';

/** The key pair s3rver accepts. */
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: AWS_ENDPOINT_URL. */
  endpoint: string;
  bucket: string;
  /** A store's configuration in the bucket under `prefix` (with a wrong secret: one the server refuses). */
  config(prefix: string, options?: { wrongSecret?: boolean }): S3Config;
  /** The environment variables naming the bucket under `prefix`, for parseConfig. */
  env(prefix: string): Record<string, string>;
  /** The keys of the objects under `prefix`, listed by the server (ListObjectsV2). */
  objectKeys(prefix: string): Promise<string[]>;
  /** The ids of multipart uploads started and neither completed nor aborted. */
  openUploads(): string[];
  stop(): Promise<void>;
}

export async function startS3(bucket = 'parley-tests'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'parley-s3-'));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const serve = s3rver.getMiddleware();
  const uploads = join(directory, bucket, '._S3rver_uploads');
  const openUploads = () => {
    try {
      return readdirSync(uploads);
    } catch {
      return [];
    }
  };
  const server = createServer((request, response) => {
    const uploadId = new URL(request.url!, 'http://s3').searchParams.get('uploadId');
    if (request.method !== 'DELETE' || uploadId === null) return serve(request, response);
    const known = /^[0-9a-f]+$/.test(uploadId) && openUploads().includes(uploadId);
    if (known) rmSync(join(uploads, uploadId), { recursive: true, force: true });
    response.writeHead(known ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    config: (prefix, { wrongSecret = false } = {}) => ({
      bucket,
      prefix,
      region: 'us-east-1',
      endpoint,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: wrongSecret ? `${SECRET_KEY}-wrong` : SECRET_KEY,
      sessionToken: undefined,
    }),
    env: (prefix) => ({
      ATTACHMENTS_URL: `s3://${bucket}/${prefix}`,
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: SECRET_KEY,
    }),
    async objectKeys(prefix) {
      const response = await fetch(`${endpoint}/${bucket}?list-type=2&prefix=${encodeURIComponent(`${prefix}/`)}`);
      if (!response.ok) throw new Error(`listing ${prefix}: ${response.status} ${await response.text()}`);
      return [...(await response.text()).matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1]!);
    },
    openUploads,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
