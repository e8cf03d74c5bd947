/**
 * docs/deploy.md's systemd unit as systemd reads it: `systemd-analyze verify`
 * finds no unknown key, no bad value and no missing command in it (ExecStart's
 * node is this machine's). Where systemd-analyze is missing, skipped with one line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './conformance/server.ts';

const ANALYZE = '/usr/bin/systemd-analyze';
const available = spawnSync(ANALYZE, ['--version']).status === 0;

test("docs/deploy.md's systemd unit has nothing systemd-analyze verify objects to", {
  skip: !available && `systemd unit check skipped: no ${ANALYZE}`,
}, () => {
  const unit = /```ini\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8'))?.[1] ?? '';
  assert.ok(unit.includes('ExecStart=/usr/bin/node '), 'docs/deploy.md has the unit, running node');
  const dir = mkdtempSync(join(tmpdir(), 'parley-unit-'));
  try {
    const file = join(dir, 'parley.service');
    writeFileSync(file, unit.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
    const verified = spawnSync(ANALYZE, ['verify', file], { encoding: 'utf8' });
    assert.deepEqual([verified.status, verified.stdout + verified.stderr], [0, '']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
