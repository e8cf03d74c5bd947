/**
 * GET /metrics: absent without METRICS_TOKEN, behind it with one, and what a
 * Prometheus scrape reads after some requests, an import and a failed one —
 * parsed by a Prometheus text parser from npm (prom2javascript), not by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetrics } from 'prom2javascript';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { json, postExport, setup, zipFolderFiles, type TestContext } from '../helpers.ts';

const TOKEN = 'metrics-token-0123456789';

async function scrape(t: TestContext): Promise<{ text: string; metrics: PromMetrics }> {
  const response = await t.app.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('Content-Type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = await response.text();
  return { text, metrics: await getMetricsFromIterator(text.split('\n')[Symbol.iterator]()) };
}

/** The sample of `name` whose labels are exactly `labels`. */
function series<Sample extends { labels: Record<string, string> }>(
  metrics: PromMetrics,
  name: string,
  labels: Record<string, string> = {},
): Sample | undefined {
  const samples: ReadonlyArray<{ labels: Record<string, string> }> = metrics[name]?.data ?? [];
  return samples.find((sample) => JSON.stringify(sample.labels) === JSON.stringify(labels)) as Sample | undefined;
}

const seriesValue = (metrics: PromMetrics, name: string, labels?: Record<string, string>) =>
  series<PromData>(metrics, name, labels)?.value;

describe('GET /metrics', () => {
  test('without METRICS_TOKEN there is none: 404', async () => {
    const t = await setup();
    const response = await t.app.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 404);
  });

  test('with it, only its bearer reads them: 401 without a token or with another one (an API key too)', async () => {
    const t = await setup({ METRICS_TOKEN: TOKEN });
    for (const [authorization, error] of [
      [undefined, 'Missing Authorization header'],
      [`Bearer ${TOKEN}x`, 'Invalid metrics token'],
      [`Bearer ${TOKEN.slice(0, -1)}`, 'Invalid metrics token'],
      [`Bearer ${t.tenant.apiKey}`, 'Invalid metrics token'],
    ] as const) {
      const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
      const response = await t.app.request('/metrics', { headers });
      assert.equal(response.status, 401, authorization);
      assert.deepEqual(await json(response), { error });
    }
  });

  test('a scrape after some requests, one import and one failed: requests by route template, latency, imports, webhooks, sizes, uploads', async () => {
    const t = await setup({ METRICS_TOKEN: TOKEN });
    await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://hooks.example.com/parley');
    const zip = zipSync(zipFolderFiles('chatgpt-2026-zip'));
    const imported = await postExport(t, zip, { contentType: 'application/zip' });
    assert.equal(imported.status, 200);
    const { connectionId } = await json(imported);
    const notJson = strToU8('{"conversations": [');
    assert.equal((await postExport(t, notJson)).status, 400);
    for (const id of ['one-id', 'another-id'])
      assert.equal((await t.request(`/api/conversations/${id}?userRef=u1&connectionId=${connectionId}`)).status, 404);
    await t.app.request('/healthz');
    await t.app.request('/healthz');
    await t.app.request('/no/such/page');
    const upload = await t.request('/api/uploads', {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '1000' },
    });
    assert.equal(upload.status, 201);
    // One of the two events the import made (connection.created, connection.synced) was given up on.
    await t.deps.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('event_type', '=', 'connection.created')
      .execute();

    const { text, metrics } = await scrape(t);
    const requests = (labels: Record<string, string>) => seriesValue(metrics, 'parley_http_requests_total', labels);
    assert.equal(requests({ method: 'GET', route: '/healthz', status: '200' }), 2);
    assert.equal(requests({ method: 'GET', route: '/api/conversations/:id', status: '404' }), 2);
    assert.equal(requests({ method: 'POST', route: '/api/ingest-export', status: '200' }), 1);
    assert.equal(requests({ method: 'POST', route: '/api/ingest-export', status: '400' }), 1);
    assert.equal(requests({ method: 'POST', route: '/api/uploads', status: '201' }), 1);
    // A path no route takes counts under the catch-all, never under itself.
    assert.equal(requests({ method: 'GET', route: '/*', status: '404' }), 1);
    for (const raw of ['one-id', 'another-id', '/no/such/page', connectionId]) assert.ok(!text.includes(raw), raw);

    const healthz = series<PromHistogramData>(metrics, 'parley_http_request_duration_seconds', {
      method: 'GET',
      route: '/healthz',
    });
    assert.equal(healthz?.count, 2);
    assert.equal(healthz?.buckets['+Inf'], 2);
    assert.equal(Object.keys(healthz!.buckets).length, 14);

    assert.equal(seriesValue(metrics, 'parley_imports_total', { result: 'imported' }), 1);
    assert.equal(seriesValue(metrics, 'parley_imports_total', { result: 'failed' }), 1);
    assert.equal(seriesValue(metrics, 'parley_import_failures_total', { reason: 'invalidExport' }), 1);
    assert.equal(seriesValue(metrics, 'parley_import_bytes_total'), zip.length + notJson.length);
    assert.equal(series<PromHistogramData>(metrics, 'parley_import_duration_seconds')?.count, 2);

    assert.equal(seriesValue(metrics, 'parley_webhook_deliveries', { status: 'pending' }), 1);
    assert.equal(seriesValue(metrics, 'parley_webhook_deliveries', { status: 'failed' }), 1);
    // The zip's one image, kept in the database.
    const image = zipFolderFiles('chatgpt-2026-zip')['file_000000004d5e6f708192a3b4c5d6e7f8.dat']!;
    assert.equal(seriesValue(metrics, 'parley_attachment_store_bytes', { store: 'database' }), image.length);
    assert.equal(seriesValue(metrics, 'parley_attachment_store_bytes', { store: 's3' }), 0);
    assert.ok(seriesValue(metrics, 'parley_database_bytes')! > 0);
    assert.equal(seriesValue(metrics, 'parley_open_uploads'), 1);
  });
});
