import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runEvery } from '../src/periodic.ts';

/** A run that ends when the test says so. */
function controlledWork() {
  const ends: Array<() => void> = [];
  let started = 0;
  return {
    work: () => {
      started++;
      return new Promise<void>((resolve) => ends.push(resolve));
    },
    get started() {
      return started;
    },
    endRun: () => ends.shift()!(),
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

test('runEvery: a tick that finds the last run under way lets it be; stop() waits for it', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const runs = controlledWork();
  const periodic = runEvery(1_000, runs.work, (error) => assert.fail(String(error)));
  assert.equal(runs.started, 0, 'the first run waits for the first tick');
  t.mock.timers.tick(1_000);
  assert.equal(runs.started, 1);
  t.mock.timers.tick(3_000);
  assert.equal(runs.started, 1, 'no second run while the first is under way');
  runs.endRun();
  await settled();
  t.mock.timers.tick(1_000);
  assert.equal(runs.started, 2);

  let stopped = false;
  const stopping = periodic.stop().then(() => (stopped = true));
  await settled();
  assert.equal(stopped, false, 'stop() waits for the run under way');
  runs.endRun();
  await stopping;
  t.mock.timers.tick(5_000);
  assert.equal(runs.started, 2, 'no run after stop()');
});

test('runEvery: `immediately` runs once at the start; a failed run is reported and the next tick runs again', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const errors: unknown[] = [];
  let started = 0;
  const periodic = runEvery(
    1_000,
    async () => {
      started++;
      throw new Error(`run ${started}`);
    },
    (error) => errors.push((error as Error).message),
    { immediately: true },
  );
  assert.equal(started, 1);
  await settled();
  t.mock.timers.tick(1_000);
  await settled();
  assert.equal(started, 2);
  assert.deepEqual(errors, ['run 1', 'run 2']);
  await periodic.stop();
});
