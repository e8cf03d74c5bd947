import * as v from 'valibot';

// The URL forms Parley accepts, each checked here once: the configuration, the
// CLI and the webhook endpoints all use these.

const HTTP_URL_MESSAGE = 'must be an absolute http(s) URL';

/** An absolute http(s) URL: `PUBLIC_URL`, a webhook endpoint. */
export const HttpUrl = v.pipe(v.string(), v.url(HTTP_URL_MESSAGE), v.regex(/^https?:\/\//, HTTP_URL_MESSAGE));

/** A PostgreSQL connection URL: `DATABASE_URL`, `migrate-to-postgres --url`. */
export const PostgresUrl = v.pipe(
  v.string(),
  v.regex(
    /^postgres(ql)?:\/\/\S+$/,
    'must be a postgres:// URL, such as postgres://parley:secret@db.example.com:5432/parley',
  ),
);

/**
 * Where attachment bytes go in S3-compatible storage, `ATTACHMENTS_URL`:
 * `s3://bucket` or `s3://bucket/prefix` (a bucket name as S3 allows it: 3 to 63
 * lowercase letters, digits, dots and hyphens); the prefix without its slashes.
 */
export const S3Url = v.pipe(
  v.string(),
  v.regex(
    /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/\S*)?$/,
    'must be s3://bucket or s3://bucket/prefix, with a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens',
  ),
  v.transform((url) => {
    const [bucket, ...prefix] = url.slice('s3://'.length).split('/');
    return { bucket: bucket!, prefix: prefix.filter((part) => part !== '').join('/') };
  }),
);
