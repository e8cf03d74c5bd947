import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env.ts';
import { ERRORS, type ParleyError } from '../errors.ts';

/** The HTTP status the interface gives an error's code. */
export const errorStatus = (error: ParleyError) => ERRORS[error.code][0] as ContentfulStatusCode;

/** The headers of any refusal, API or page: when to try again, and whether the connection stays. */
export function setErrorHeaders(c: Context<AppEnv>, error: ParleyError) {
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  closeIfBodyUnread(c);
}

/**
 * A request refused with its body perhaps unread (a 401 on a 1 GB upload, say,
 * or a 413 part-way through one): the rest goes with the connection instead of
 * being read as the next request. Judged by the upload when the route read the
 * body as one (see openExportUpload), whatever the headers said; otherwise from
 * the headers alone, as even asking Deno's Request whether its body was used
 * makes the server read all of it. A client reconnects after an error.
 */
export function closeIfBodyUnread(c: Context<AppEnv>) {
  const upload = c.get('upload');
  const headers = c.req.raw.headers;
  const unread = upload
    ? !upload.finished
    : headers.has('Transfer-Encoding') || Number(headers.get('Content-Length')) > 0;
  if (unread) c.header('Connection', 'close');
}
