import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { LimitedBody } from '../http/export-upload.ts';
import {
  appendToUpload,
  createUpload,
  deleteUpload,
  uploadOfApp,
  type UploadOwner,
  type UploadRow,
} from '../uploads/resumable-uploads.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';

/** The protocol version and extensions spoken (tus 1.0.0, tus.io/protocols/resumable-upload). */
const TUS_VERSION = '1.0.0';
const TUS_EXTENSIONS = 'creation,creation-with-upload,termination,expiration';
/** The one body type the protocol sends bytes as. */
const OFFSET_OCTET_STREAM = 'application/offset+octet-stream';

/** A header holding a byte count: digits only, as the protocol defines it; 400 `invalid` otherwise. */
function byteCount(value: string | undefined, invalid: 'invalidUploadLength' | 'invalidUploadOffset'): number {
  if (value === undefined || !/^\d{1,16}$/.test(value)) throw new ParleyError(invalid);
  return Number(value);
}

/** Every answer names the protocol version; a request of another version is 412 (OPTIONS asks which there are). */
const tusVersion = createMiddleware<AppEnv>(async (c, next) => {
  c.header('Tus-Resumable', TUS_VERSION);
  if (c.req.method !== 'OPTIONS' && c.req.header('Tus-Resumable') !== TUS_VERSION) {
    c.header('Tus-Version', TUS_VERSION);
    throw new ParleyError('unsupportedTusVersion');
  }
  await next();
});

/** Where a set of uploads is served, who may reach it, and whose an upload made there is. */
export interface UploadPlace {
  /** The route, in the Hono app these routes are mounted into. */
  path: string;
  /** The same as the client reaches it: the uploads' `Location`. */
  location: string;
  /** Admits the request (its refusals are its own), before any upload is created or found. */
  authorise: MiddlewareHandler<AppEnv>;
  owner: (c: Context<AppEnv>) => UploadOwner;
}

/** /api/uploads: the app's uploads, under its API key. */
export const uploadRoutes = (deps: Deps, requireCaller: CallerMiddleware) =>
  tusRoutes(deps, {
    path: '/uploads',
    location: '/api/uploads',
    authorise: requireCaller,
    owner: (c) => ({ appId: c.get('caller').appId }),
  });

/**
 * Resumable uploads, tus 1.0.0 with creation, creation-with-upload,
 * termination and expiration, for a file an import then names
 * (`POST /api/ingest-export?upload=`, or the connect page's import). Protocol
 * only: the rules are in uploads/resumable-uploads.ts. Written here rather than
 * with the tus project's server package, which keeps its locks in process
 * memory (this needs none: a part counts only where it starts at the bytes
 * received), reads bodies through Node streams outside the bounds every other
 * body has, and answers errors in its own text.
 */
export function tusRoutes(deps: Deps, place: UploadPlace) {
  const routes = new Hono<AppEnv>();
  const { path, authorise } = place;
  routes.use(path, tusVersion);
  routes.use(`${path}/*`, tusVersion);

  const expiry = (upload: Pick<UploadRow, 'expires_at'>) => ({
    'Upload-Expires': new Date(upload.expires_at).toUTCString(),
  });

  /**
   * Reads the request's bytes into the upload from `offset` (appendToUpload): the
   * body is bounded by what the upload still lacks (413 past it) and cut off
   * after UPLOAD_IDLE_TIMEOUT_MS without a byte (408), keeping what arrived.
   */
  const append = (c: Context<AppEnv>, upload: UploadRow, offset: number) => {
    const lacking = Math.max(0, upload.length - offset);
    // Known too long before a byte is read: refused at once, as every upload is.
    if (Number(c.req.header('Content-Length')) > lacking) throw new ParleyError('exportTooLarge');
    const body = new LimitedBody(c.req.raw.body, lacking, deps.config.uploadIdleTimeoutMs);
    c.set('upload', body);
    return appendToUpload(deps, upload, offset, body);
  };
  /** Whether the request sends bytes: a body of the protocol's type, or 415 for one of another. */
  const withBytes = (c: Context<AppEnv>) => {
    const type = c.req.header('Content-Type');
    if (type === undefined) return false;
    if (type.split(';')[0]!.trim().toLowerCase() !== OFFSET_OCTET_STREAM)
      throw new ParleyError('unsupportedContentType');
    return true;
  };
  const notUploadMethod = methodNotAllowed(['HEAD', 'PATCH', 'DELETE']);
  const ownUpload = (c: Context<AppEnv>) => uploadOfApp(deps, place.owner(c), c.req.param('id')!);

  routes.options(path, (c) =>
    c.body(null, 204, {
      'Tus-Version': TUS_VERSION,
      'Tus-Extension': TUS_EXTENSIONS,
      'Tus-Max-Size': String(deps.config.maxExportBytes),
    }),
  );
  routes.post(path, authorise, async (c) => {
    if (c.req.header('Upload-Defer-Length') !== undefined) throw new ParleyError('invalidUploadLength');
    const length = byteCount(c.req.header('Upload-Length'), 'invalidUploadLength');
    const hasBytes = withBytes(c);
    const upload = await createUpload(deps, place.owner(c), {
      length,
      metadata: c.req.header('Upload-Metadata') ?? '',
    });
    // Relative: the client resolves it against the address it reached this server at.
    c.header('Location', `${place.location}/${upload.id}`);
    const after = hasBytes ? await append(c, upload, 0) : upload;
    if (hasBytes) c.header('Upload-Offset', String(after.received));
    return c.body(null, 201, expiry(after));
  });
  routes.all(path, methodNotAllowed(['OPTIONS', 'POST']));

  // Hono routes HEAD as GET: a GET of an upload is not part of the protocol.
  routes.get(`${path}/:id`, authorise, async (c) => {
    if (c.req.method !== 'HEAD') return notUploadMethod(c, async () => {});
    const upload = await ownUpload(c);
    const headers: Record<string, string> = {
      'Upload-Offset': String(upload.received),
      'Upload-Length': String(upload.length),
      ...expiry(upload),
    };
    if (upload.metadata !== '') headers['Upload-Metadata'] = upload.metadata;
    return c.body(null, 200, headers);
  });
  routes.patch(`${path}/:id`, authorise, async (c) => {
    if (!withBytes(c)) throw new ParleyError('unsupportedContentType');
    const offset = byteCount(c.req.header('Upload-Offset'), 'invalidUploadOffset');
    const upload = await ownUpload(c);
    const after = await append(c, upload, offset);
    return c.body(null, 204, { 'Upload-Offset': String(after.received), ...expiry(after) });
  });
  routes.delete(`${path}/:id`, authorise, async (c) => {
    await deleteUpload(deps, (await ownUpload(c)).id);
    return c.body(null, 204);
  });
  routes.all(`${path}/:id`, notUploadMethod);
  return routes;
}
