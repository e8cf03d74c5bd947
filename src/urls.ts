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
