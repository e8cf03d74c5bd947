import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, parseConfig } from '../src/config.ts';

describe('parseConfig', () => {
  test('the defaults', () => {
    assert.deepEqual(parseConfig({}), {
      port: 8787,
      host: '127.0.0.1',
      databasePath: './data/parley.db',
      publicUrl: 'http://localhost:8787',
      rateLimitPerMinute: 60,
      maxExportBytes: 1073741824,
      webhookRetrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
      webhookTimeoutMs: 15000,
      staleAfterDays: 0,
      logLevel: 'info',
      maxConversationBytes: 67108864,
      maxExpandedBytes: 4 * 1073741824,
      maxImportBytes: 4 * 1073741824,
      maxAttachmentBytes: 512 * 1024 * 1024,
      maxExportRecords: 250000,
      databaseUrl: undefined,
      webhookAllowPrivate: true,
      headersTimeoutMs: 10000,
      bodyTimeoutMs: 30000,
      uploadIdleTimeoutMs: 60000,
      lingerTimeoutMs: 10000,
      maxConcurrentImports: 2,
      importQueueTimeoutMs: 5000,
      attachmentsS3: undefined,
      maxStoredBytesPerUser: 16 * 1073741824,
      maxStoredBytesPerApp: 0,
      maxOpenUploadBytes: 16 * 1073741824,
      uploadExpiryHours: 24,
      connectSessionHours: 24,
      mcpAllowedOrigins: [],
      metricsToken: undefined,
    });
  });

  test('PUBLIC_URL follows PORT unless it is set', () => {
    assert.equal(parseConfig({ PORT: '28901' }).publicUrl, 'http://localhost:28901');
    assert.equal(parseConfig({ PORT: '28901', PUBLIC_URL: '' }).publicUrl, 'http://localhost:28901');
    assert.equal(
      parseConfig({ PORT: '28901', PUBLIC_URL: 'https://parley.example.com' }).publicUrl,
      'https://parley.example.com',
    );
  });

  test('MAX_EXPANDED_BYTES follows MAX_EXPORT_BYTES unless it is set', () => {
    assert.equal(parseConfig({ MAX_EXPORT_BYTES: '1000' }).maxExpandedBytes, 4000);
    assert.equal(parseConfig({ MAX_EXPORT_BYTES: '1000', MAX_EXPANDED_BYTES: '1500' }).maxExpandedBytes, 1500);
    assert.equal(parseConfig({ MAX_EXPORT_BYTES: '1000', MAX_EXPANDED_BYTES: '' }).maxExpandedBytes, 4000);
  });

  test('MAX_IMPORT_BYTES follows MAX_EXPORT_BYTES unless it is set', () => {
    assert.equal(parseConfig({ MAX_EXPORT_BYTES: '1000' }).maxImportBytes, 4000);
    assert.equal(parseConfig({ MAX_EXPORT_BYTES: '1000', MAX_IMPORT_BYTES: '2500' }).maxImportBytes, 2500);
  });

  test('MAX_STORED_BYTES_PER_USER follows MAX_EXPANDED_BYTES unless it is set; 0 is no bound', () => {
    assert.equal(parseConfig({ MAX_EXPORT_BYTES: '1000' }).maxStoredBytesPerUser, 16000);
    assert.equal(parseConfig({ MAX_EXPANDED_BYTES: '1000' }).maxStoredBytesPerUser, 4000);
    assert.equal(parseConfig({ MAX_EXPANDED_BYTES: '1000', MAX_STORED_BYTES_PER_USER: '0' }).maxStoredBytesPerUser, 0);
    assert.equal(parseConfig({ MAX_STORED_BYTES_PER_USER: '' }).maxStoredBytesPerUser, 16 * 1073741824);
  });

  test('an empty variable means its default; unrelated variables are ignored', () => {
    assert.deepEqual(parseConfig({ PORT: '', LOG_LEVEL: '', PATH: '/usr/bin', HOME: '/root' }), parseConfig({}));
  });

  test('every variable is read', () => {
    assert.deepEqual(
      parseConfig({
        PORT: '3000',
        HOST: '0.0.0.0',
        DATABASE_PATH: '/var/lib/parley/db.sqlite',
        PUBLIC_URL: 'https://parley.example.com/',
        RATE_LIMIT_PER_MINUTE: '120',
        MAX_EXPORT_BYTES: '1048576',
        WEBHOOK_RETRY_SCHEDULE: '1,2,3',
        WEBHOOK_TIMEOUT_MS: '500',
        STALE_AFTER_DAYS: '30',
        LOG_LEVEL: 'warn',
        MAX_CONVERSATION_BYTES: '1000',
        MAX_EXPANDED_BYTES: '5000000',
        MAX_IMPORT_BYTES: '3000000',
        MAX_ATTACHMENT_BYTES: '3000000',
        MAX_EXPORT_RECORDS: '5000',
        DATABASE_URL: 'postgres://parley:secret@db.example.com:5432/parley',
        WEBHOOK_ALLOW_PRIVATE: 'false',
        HEADERS_TIMEOUT_MS: '2000',
        BODY_TIMEOUT_MS: '3000',
        UPLOAD_IDLE_TIMEOUT_MS: '4000',
        LINGER_TIMEOUT_MS: '0',
        MAX_CONCURRENT_IMPORTS: '5',
        IMPORT_QUEUE_TIMEOUT_MS: '0',
        ATTACHMENTS_URL: 's3://parley-media/attachments/',
        AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI',
        AWS_SESSION_TOKEN: 'token',
        AWS_REGION: 'eu-central-1',
        AWS_ENDPOINT_URL: 'https://minio.internal:9000/',
        MAX_STORED_BYTES_PER_USER: '7000000',
        MAX_STORED_BYTES_PER_APP: '9000000',
        MAX_OPEN_UPLOAD_BYTES: '8000000',
        UPLOAD_EXPIRY_HOURS: '48',
        CONNECT_SESSION_HOURS: '12',
        MCP_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:3000',
        METRICS_TOKEN: 'a-long-enough-metrics-token',
      }),
      {
        port: 3000,
        host: '0.0.0.0',
        databasePath: '/var/lib/parley/db.sqlite',
        // The trailing slash goes, so links never get a double slash.
        publicUrl: 'https://parley.example.com',
        rateLimitPerMinute: 120,
        maxExportBytes: 1048576,
        webhookRetrySchedule: [1, 2, 3],
        webhookTimeoutMs: 500,
        staleAfterDays: 30,
        logLevel: 'warn',
        maxConversationBytes: 1000,
        maxExpandedBytes: 5000000,
        maxImportBytes: 3000000,
        maxAttachmentBytes: 3000000,
        maxExportRecords: 5000,
        databaseUrl: 'postgres://parley:secret@db.example.com:5432/parley',
        webhookAllowPrivate: false,
        headersTimeoutMs: 2000,
        bodyTimeoutMs: 3000,
        uploadIdleTimeoutMs: 4000,
        lingerTimeoutMs: 0,
        maxConcurrentImports: 5,
        importQueueTimeoutMs: 0,
        attachmentsS3: {
          bucket: 'parley-media',
          prefix: 'attachments',
          region: 'eu-central-1',
          endpoint: 'https://minio.internal:9000',
          accessKeyId: 'AKIDEXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI',
          sessionToken: 'token',
        },
        maxStoredBytesPerUser: 7000000,
        maxStoredBytesPerApp: 9000000,
        maxOpenUploadBytes: 8000000,
        uploadExpiryHours: 48,
        connectSessionHours: 12,
        mcpAllowedOrigins: ['https://app.example.com', 'http://localhost:3000'],
        metricsToken: 'a-long-enough-metrics-token',
      },
    );
  });

  test('ATTACHMENTS_URL: a bucket with or without a prefix; AWS S3 in us-east-1 unless told otherwise', () => {
    const credentials = { AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret' };
    const s3 = (url: string) => parseConfig({ ATTACHMENTS_URL: url, ...credentials }).attachmentsS3;
    assert.deepEqual(s3('s3://media'), {
      bucket: 'media',
      prefix: '',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      sessionToken: undefined,
    });
    assert.equal(s3('s3://media/')?.prefix, '');
    assert.equal(s3('s3://media.example.com/a//b/')?.prefix, 'a/b');
    // Credentials alone name no store: they may be set for other programs.
    assert.equal(parseConfig(credentials).attachmentsS3, undefined);
    assert.equal(parseConfig({ ...credentials, ATTACHMENTS_URL: '' }).attachmentsS3, undefined);
  });

  const bad: Array<{ env: Record<string, string>; message: string }> = [
    {
      env: { MAX_CONCURRENT_IMPORTS: '0' },
      message: 'Invalid configuration: MAX_CONCURRENT_IMPORTS must be a whole number from 1 to 1000 (got "0")',
    },
    { env: { PORT: 'abc' }, message: 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")' },
    {
      env: { PORT: '70000' },
      message: 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "70000")',
    },
    { env: { PORT: '-1' }, message: 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "-1")' },
    {
      env: { PUBLIC_URL: 'notaurl' },
      message: 'Invalid configuration: PUBLIC_URL must be an absolute http(s) URL (got "notaurl")',
    },
    {
      env: { PUBLIC_URL: 'ftp://example.com' },
      message: 'Invalid configuration: PUBLIC_URL must be an absolute http(s) URL (got "ftp://example.com")',
    },
    {
      env: { RATE_LIMIT_PER_MINUTE: '0' },
      message: 'Invalid configuration: RATE_LIMIT_PER_MINUTE must be a whole number from 1 to 1000000000 (got "0")',
    },
    {
      env: { RATE_LIMIT_PER_MINUTE: '2.5' },
      message: 'Invalid configuration: RATE_LIMIT_PER_MINUTE must be a whole number from 1 to 1000000000 (got "2.5")',
    },
    {
      env: { MAX_EXPORT_BYTES: '1GB' },
      message: 'Invalid configuration: MAX_EXPORT_BYTES must be a whole number from 1 to 9007199254740991 (got "1GB")',
    },
    {
      env: { LOG_LEVEL: 'loud' },
      message: 'Invalid configuration: LOG_LEVEL must be one of debug, info, warn, error, silent (got "loud")',
    },
    {
      env: { WEBHOOK_RETRY_SCHEDULE: '1,,2' },
      message:
        'Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of whole seconds, such as 5,300,1800 (got "1,,2")',
    },
    {
      env: { WEBHOOK_RETRY_SCHEDULE: '5, 300' },
      message:
        'Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of whole seconds, such as 5,300,1800 (got "5, 300")',
    },
    {
      env: { WEBHOOK_TIMEOUT_MS: '0' },
      message: 'Invalid configuration: WEBHOOK_TIMEOUT_MS must be a whole number from 1 to 3600000 (got "0")',
    },
    {
      env: { STALE_AFTER_DAYS: '-1' },
      message: 'Invalid configuration: STALE_AFTER_DAYS must be a whole number from 0 to 36500 (got "-1")',
    },
    {
      env: { MAX_CONVERSATION_BYTES: '0' },
      message: 'Invalid configuration: MAX_CONVERSATION_BYTES must be a whole number from 1 to 536870888 (got "0")',
    },
    {
      env: { MAX_CONVERSATION_BYTES: '1073741824' },
      message:
        'Invalid configuration: MAX_CONVERSATION_BYTES must be a whole number from 1 to 536870888 (got "1073741824")',
    },
    {
      env: { MAX_EXPANDED_BYTES: '4 GiB' },
      message:
        'Invalid configuration: MAX_EXPANDED_BYTES must be a whole number from 1 to 9007199254740991 (got "4 GiB")',
    },
    // The password of a database URL is never shown.
    {
      env: { MAX_STORED_BYTES_PER_USER: '16 GiB' },
      message:
        'Invalid configuration: MAX_STORED_BYTES_PER_USER must be a whole number from 0 to 9007199254740991 (got "16 GiB")',
    },
    {
      env: { MAX_STORED_BYTES_PER_APP: '-1' },
      message:
        'Invalid configuration: MAX_STORED_BYTES_PER_APP must be a whole number from 0 to 9007199254740991 (got "-1")',
    },
    {
      env: { DATABASE_URL: 'mysql://parley:secret@db/parley' },
      message:
        'Invalid configuration: DATABASE_URL must be a postgres:// URL, such as postgres://parley:secret@db.example.com:5432/parley (got "mysql://parley:***@db/parley")',
    },
    {
      env: { ATTACHMENTS_URL: 'https://media.s3.amazonaws.com/attachments' },
      message:
        'Invalid configuration: ATTACHMENTS_URL must be s3://bucket or s3://bucket/prefix, with a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens (got "https://media.s3.amazonaws.com/attachments")',
    },
    {
      env: { ATTACHMENTS_URL: 's3://Media/attachments' },
      message:
        'Invalid configuration: ATTACHMENTS_URL must be s3://bucket or s3://bucket/prefix, with a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens (got "s3://Media/attachments")',
    },
    {
      env: { ATTACHMENTS_URL: 's3://media', AWS_SECRET_ACCESS_KEY: 'secret' },
      message: 'Invalid configuration: AWS_ACCESS_KEY_ID must be set when ATTACHMENTS_URL is (got "")',
    },
    {
      env: { ATTACHMENTS_URL: 's3://media', AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: '' },
      message: 'Invalid configuration: AWS_SECRET_ACCESS_KEY must be set when ATTACHMENTS_URL is (got "")',
    },
    {
      env: { AWS_REGION: 'US East' },
      message: 'Invalid configuration: AWS_REGION must be a region name, such as us-east-1 (got "US East")',
    },
    {
      env: { AWS_ENDPOINT_URL: 'minio:9000' },
      message: 'Invalid configuration: AWS_ENDPOINT_URL must be an absolute http(s) URL (got "minio:9000")',
    },
    {
      env: { WEBHOOK_ALLOW_PRIVATE: 'no' },
      message: 'Invalid configuration: WEBHOOK_ALLOW_PRIVATE must be true or false (got "no")',
    },
    // Digits and dots that are no IPv4 address (Bun would blame the port).
    {
      env: { HOST: '999.1.1.1' },
      message: 'Invalid configuration: HOST must be an IP address or a host name (got "999.1.1.1")',
    },
    {
      env: { HOST: '10.0.0' },
      message: 'Invalid configuration: HOST must be an IP address or a host name (got "10.0.0")',
    },
    // A value with a line break still gives one line.
    {
      env: { LOG_LEVEL: 'info\nerror' },
      message: 'Invalid configuration: LOG_LEVEL must be one of debug, info, warn, error, silent (got "info\\nerror")',
    },
  ];
  for (const { env, message } of bad) {
    const [name, value] = Object.entries(env)[0]!;
    test(`${name}=${JSON.stringify(value)} is refused with one line naming it`, () => {
      assert.throws(
        () => parseConfig(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.equal(error.message, message);
          assert.doesNotMatch(error.message, /\n/);
          return true;
        },
      );
    });
  }

  test('with several bad values, the message names one of them', () => {
    assert.throws(
      () => parseConfig({ LOG_LEVEL: 'loud', PORT: 'abc' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /^Invalid configuration: (PORT|LOG_LEVEL) /);
        return true;
      },
    );
  });
});
