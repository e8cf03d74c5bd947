import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type * as v from 'valibot';
import type * as sdk from 'parley-sdk';
import * as schemas from '../../src/api/schemas.ts';
import { ERRORS, type ErrorCode } from '../../src/errors.ts';
import { json, setup } from '../helpers.ts';
import { checkAnswer, checkDelivery, OPENAPI } from '../openapi-check.ts';

// The schemas the document comes from describe exactly the SDK's types: a
// field added to one and not the other stops the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Event<T extends sdk.EventType> = Extract<sdk.ParleyEvent, { type: T }>;
interface Answers {
  ConnectionList: sdk.ConnectionList;
  ConversationPage: sdk.ConversationPage;
  MemoryPage: sdk.MemoryPage;
  ProjectPage: sdk.ProjectPage;
  ConversationSummaryPage: sdk.ConversationSummaryPage;
  IngestResult: sdk.IngestResult;
  PurgeResult: sdk.PurgeResult;
  AgentToken: sdk.AgentToken;
}
const sameTypes: { [Name in keyof Answers]: Same<v.InferOutput<(typeof schemas)[Name]>, Answers[Name]> } & {
  [T in sdk.EventType]: Same<v.InferOutput<(typeof schemas.EVENTS)[T]>, Event<T>>;
} = {
  ConnectionList: true,
  ConversationPage: true,
  MemoryPage: true,
  ProjectPage: true,
  ConversationSummaryPage: true,
  IngestResult: true,
  PurgeResult: true,
  AgentToken: true,
  'connection.created': true,
  'connection.synced': true,
  'connection.needs_reauth': true,
  'connection.revoked': true,
  'connection.purged': true,
  'user.purged': true,
  'conversation.deleted': true,
  'webhook.test': true,
};

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'Content-Type': 'application/json', ...headers }),
  text: JSON.stringify(body),
});
const RATE = { 'RateLimit-Limit': '60', 'RateLimit-Remaining': '59', 'RateLimit-Reset': '1772366460' };
const FILE = {
  'Content-Type': 'image/png',
  ETag: '"n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg"',
  'Cache-Control': 'private, no-cache',
  'Accept-Ranges': 'bytes',
  'Content-Length': '3',
  'Content-Disposition': `inline; filename="a.png"; filename*=UTF-8''a.png`,
};
const file = (status: number, headers: Record<string, string>, text = 'PNG') => ({
  status,
  headers: new Headers(headers),
  text,
});
const message = (code: ErrorCode) => ERRORS[code][1];

describe('GET /openapi.json', () => {
  test('serves the document without a credential, readable from any origin', async () => {
    const t = await setup();
    const res = await t.app.request('/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await json(res), OPENAPI);
  });

  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(OPENAPI) as Parameters<Validator['validate']>[0]);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(OPENAPI.openapi, '3.1.0');
    assert.ok(Object.values(sameTypes).every(Boolean));
  });

  test('names every operation, the rate-limit headers, every error message of each, and every webhook', () => {
    const paths = OPENAPI.paths as Record<string, Record<string, any>>;
    assert.deepEqual(Object.keys(paths).sort(), [
      '/api/agent-tokens',
      '/api/attachments/{id}',
      '/api/connections',
      '/api/conversations',
      '/api/conversations/{id}',
      '/api/ingest-export',
      '/api/memories',
      '/api/projects',
      '/api/purge',
      '/api/uploads',
      '/api/uploads/{id}',
      '/healthz',
      '/openapi.json',
    ]);
    const listing = paths['/api/conversations']!.get;
    assert.deepEqual(
      listing.parameters.map((p: { name: string }) => p.name),
      ['userRef', 'connectionId', 'limit', 'offset', 'updatedSince', 'q', 'fields'],
    );
    assert.deepEqual(Object.keys(listing.responses['429'].headers), [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    assert.deepEqual(
      listing.responses['400'].content['application/json'].schema.properties.error.anyOf.map(
        (s: { const: string }) => s.const,
      ),
      [
        'Missing userRef parameter',
        'Invalid userRef parameter',
        'Missing connectionId parameter',
        'Invalid limit parameter',
        'Invalid offset parameter',
        'Invalid updatedSince parameter',
        'Invalid q parameter',
        'Invalid fields parameter',
      ],
    );
    const ingest = paths['/api/ingest-export']!.post;
    assert.deepEqual(Object.keys(ingest.responses), [
      '200',
      '400',
      '401',
      '404',
      '408',
      '409',
      '410',
      '413',
      '415',
      '500',
      '503',
    ]);
    assert.deepEqual(Object.keys(ingest.responses['503'].headers), ['Retry-After']);
    assert.deepEqual(Object.keys(ingest.requestBody.content), [
      'application/json',
      'application/zip',
      'application/x-zip-compressed',
      'text/csv',
      'text/plain',
      'text/html',
      'multipart/form-data',
    ]);
    assert.equal(ingest.responses['429'], undefined, 'imports are not rate limited');
    const attachment = paths['/api/attachments/{id}']!.get;
    assert.deepEqual(
      attachment.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`),
      ['path id'],
    );
    assert.deepEqual(Object.keys(attachment.responses), ['200', '206', '304', '401', '404', '416', '500', '503']);
    assert.deepEqual(Object.keys(attachment.responses['206'].headers), [
      'ETag',
      'Cache-Control',
      'Accept-Ranges',
      'Content-Length',
      'Content-Disposition',
      'Content-Range',
      'Deprecation',
    ]);
    assert.deepEqual(Object.keys(attachment.responses['416'].headers), ['Content-Range']);
    assert.deepEqual(Object.keys(OPENAPI.webhooks).sort(), Object.keys(schemas.EVENTS).sort());
  });
});

describe('answers are checked against the document', () => {
  // The check every API test's answers go through (see test/helpers.ts) must be
  // able to fail.
  test('a documented answer passes', () => {
    checkAnswer(
      'POST',
      '/api/purge',
      answer(200, { ok: true, deleted: { users: 1, connections: 2, conversations: 3 } }),
    );
    checkAnswer('POST', '/api/ingest-export', answer(400, { error: 'Invalid export file: truncated' }));
    checkAnswer(
      'GET',
      '/api/conversations?userRef=u',
      answer(429, { error: message('rateLimited') }, { ...RATE, 'Retry-After': '30' }),
    );
    checkAnswer('DELETE', '/api/purge', answer(405, { error: message('methodNotAllowed') }, { Allow: 'POST' }));
    checkAnswer('GET', '/api/attachments/a1', file(200, FILE));
    checkAnswer('GET', '/api/attachments/a1', file(206, { ...FILE, 'Content-Range': 'bytes 0-2/10' }));
    checkAnswer('GET', '/api/attachments/a1', file(304, { ETag: FILE.ETag, 'Cache-Control': 'private, no-cache' }, ''));
    checkAnswer(
      'GET',
      '/api/attachments/a1',
      answer(416, { error: message('rangeNotSatisfiable') }, { 'Content-Range': 'bytes */10' }),
    );
    checkAnswer('GET', '/manage', {
      status: 200,
      headers: new Headers({ 'Content-Type': 'text/html' }),
      text: '<!doctype html>',
    });
  });

  const refused: Array<[string, string, string, ReturnType<typeof answer>]> = [
    ['a status the operation does not list', 'POST', '/api/purge', answer(429, { error: message('rateLimited') })],
    ['a message the status does not list', 'POST', '/api/purge', answer(404, { error: message('keyNotFound') })],
    [
      'a field the schema does not name',
      'POST',
      '/api/purge',
      answer(200, { ok: true, deleted: { users: 1, connections: 0, conversations: 0 }, extra: 1 }),
    ],
    ['a wrong type', 'GET', '/api/conversations', answer(200, { connections: [], userRef: 7 }, RATE)],
    ['a required header missing', 'GET', '/api/connections', answer(429, { error: message('rateLimited') }, RATE)],
    [
      'a header of the wrong form',
      'GET',
      '/api/connections',
      answer(404, { error: message('userNotFound') }, { ...RATE, 'RateLimit-Remaining': 'many' }),
    ],
    [
      'another content type',
      'GET',
      '/healthz',
      { ...answer(200, { ok: true, version: '1.0.0' }), headers: new Headers({ 'Content-Type': 'text/plain' }) },
    ],
    ['another method not answered 405', 'PUT', '/api/purge', answer(404, { error: message('notFound') })],
    ['a file without its ETag', 'GET', '/api/attachments/a1', file(200, { ...FILE, ETag: '' })],
    ['a range without its Content-Range', 'GET', '/api/attachments/a1', file(206, FILE)],
    [
      'a 304 with a body',
      'GET',
      '/api/attachments/a1',
      file(304, { ETag: FILE.ETag, 'Cache-Control': 'private, no-cache' }),
    ],
    [
      'an unsatisfiable range without the size',
      'GET',
      '/api/attachments/a1',
      answer(416, { error: message('rangeNotSatisfiable') }),
    ],
  ];
  for (const [what, method, path, got] of refused) {
    test(`refused: ${what}`, () => assert.throws(() => checkAnswer(method, path, got), assert.AssertionError));
  }

  test('webhook deliveries: a documented event passes, a wrong one is refused', () => {
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1772366430', 'webhook-signature': 'v1,x' };
    const event = {
      type: 'connection.purged',
      timestamp: '2026-03-01T12:00:30.000Z',
      data: { userRef: 'u', connectionId: 'c', conversations: 2 },
    };
    checkDelivery(headers, JSON.stringify(event));
    assert.throws(
      () => checkDelivery(headers, JSON.stringify({ ...event, type: 'connection.exploded' })),
      assert.AssertionError,
    );
    assert.throws(
      () => checkDelivery(headers, JSON.stringify({ ...event, data: { userRef: 'u' } })),
      assert.AssertionError,
    );
    assert.throws(() => checkDelivery({}, JSON.stringify(event)), assert.AssertionError);
  });
});
