/**
 * /assets/: the pages' scripts, stylesheet and favicon, each a file of pages/assets/
 * built by esbuild (scripts/build-assets.ts) into the module the app serves them from.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { builtAssets } from '../../scripts/build-assets.ts';
import { setup } from '../helpers.ts';

describe('/assets/', () => {
  test('serves each file of pages/assets/ as built from it now, a script in TypeScript as its .js', async () => {
    const t = await setup();
    const expected = [
      ['favicon.svg', 'image/svg+xml'],
      ['page.js', 'text/javascript; charset=utf-8'],
      ['parley.css', 'text/css; charset=utf-8'],
      ['return.js', 'text/javascript; charset=utf-8'],
      ['upload.js', 'text/javascript; charset=utf-8'],
    ] as const;
    const names = expected.map(([name]) => name);
    assert.deepEqual(
      readdirSync('pages/assets')
        .map((file) => file.replace(/\.ts$/, '.js'))
        .sort(),
      names,
    );
    const built = await builtAssets();
    assert.deepEqual(Object.keys(built), names);
    for (const [name, type] of expected) {
      const response = await t.app.request(`/assets/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('content-type'), type, name);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=3600', name);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', name);
      // A stale dist/assets.ts (pages/assets/ changed since `npm run build:assets`) fails here.
      assert.equal(await response.text(), built[name], `${name} is pages/assets/ built as it is now`);
    }
    assert.equal((await t.app.request('/assets/upload.ts')).status, 404);
  });
});
