/**
 * A test runner small enough to run the same file under Node, Deno and Bun
 * (node --import tsx, deno run, bun): `test` registers, `run` runs in order
 * and ends with the plain `N passed, N failed` line, exiting 1 on a failure.
 */
const tests: Array<{ name: string; body: () => unknown }> = [];

export function test(name: string, body: () => unknown): void {
  tests.push({ name, body });
}

export async function run(): Promise<void> {
  let passed = 0;
  let failed = 0;
  for (const { name, body } of tests) {
    try {
      await body();
      passed++;
      console.log(`ok - ${name}`);
    } catch (error) {
      failed++;
      console.log(`not ok - ${name}\n${String((error as Error)?.stack ?? error).replace(/^/gm, '  ')}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  const deno = (globalThis as { Deno?: { exit(code: number): never } }).Deno;
  if (failed === 0) return;
  if (deno) deno.exit(1);
  else (globalThis as unknown as { process: { exitCode: number } }).process.exitCode = 1;
}
