// The part of `@20minutes/s3rver` (a CommonJS package without types) that test/s3-server.ts uses.
declare module '@20minutes/s3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class S3rver {
    constructor(options: { silent?: boolean; directory: string; configureBuckets?: Array<{ name: string }> });
    configureBuckets(): Promise<void>;
    /** The server's request handler, to serve from an HTTP server of one's own. */
    getMiddleware(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
