import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '../../src/config.ts';

/**
 * `node` is what `npm start` serves: the esbuild bundle of the Node entry
 * (`npm run build:node`, which test/run.ts runs first); `npm-start` is the
 * README's command itself.
 */
export type RuntimeName = 'node' | 'npm-start' | 'deno' | 'bun' | 'binary';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The Node entry as `npm start` builds it, for every test that starts the
 * server or runs its command line: it starts in a fraction of the time the
 * sources take through tsx.
 */
export function nodeEntry(): string {
  const entry = join(ROOT, 'dist/node/node.mjs');
  if (!existsSync(entry))
    throw new Error(`${entry} is missing: run the tests through test/run.ts (npm test), which builds it`);
  return entry;
}

/** This process's environment without the variables Parley reads, for a child to start from. */
export const inheritedEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLES.includes(name)));

const STARTUP_LIMIT_MS = 20_000;
const STOP_LIMIT_MS = 10_000;

export interface StartOptions {
  databasePath: string;
  /** Added to (and overriding) the variables startServer sets. */
  env?: Record<string, string>;
  /** The compiled executable, for runtime 'binary'. */
  binaryPath?: string;
  /** Working directory of the process; the repository by default. */
  cwd?: string;
}

export interface RunningServer {
  runtime: RuntimeName;
  url: string;
  /** Every stdout and stderr line so far, in arrival order per stream. */
  logs: string[];
  /** Milliseconds from spawn to the first 200 from /healthz. */
  startupMs: number;
  pid: number;
  /** Sends `signal`, waits (at most 10 s, then kill -9 and throw) for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A port nobody listens on right now: the kernel picks it, we let it go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * V8's heap as `npm start` and `npm run start:deno` set it. A young generation
 * of at most 4 MB a semi-space: the text an import's threads pass between them
 * dies young, and so do the buffers an HTTP server reads an upload into, which
 * are freed only when V8 collects their small objects — a smaller young
 * generation collects them sooner (Deno's 200 MB import peaked at 340 MB with
 * V8's default, about 250 MB with 8 MB, about 240 MB with 4 MB at the same CPU
 * time). An old generation let grow by 10% between full collections instead of
 * V8's own factor (up to 2x for small heaps): a 1 GB import's garbage then
 * peaked at 219 MB RSS instead of 260 MB.
 */
const V8_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=10'];

/**
 * glibc's malloc as `npm start`, `start:deno` and `start:bun` set it: two arenas
 * instead of one for each thread that allocates (up to eight per core), each
 * keeping what was freed in it, so an import's peak is lower (docs/performance.md,
 * "malloc arenas").
 */
const MALLOC_ENV = { MALLOC_ARENA_MAX: '2' };

function command(runtime: RuntimeName, binaryPath: string | undefined): [string, string[]] {
  switch (runtime) {
    case 'node':
      return [process.execPath, [...V8_FLAGS, nodeEntry()]];
    case 'npm-start':
      return ['npm', ['start', '--silent']];
    case 'deno':
      return [
        `${ROOT}node_modules/.bin/deno`,
        [
          'run',
          '--conditions=parley-source',
          `--v8-flags=${V8_FLAGS.join(',')}`,
          '--allow-net',
          '--allow-env',
          '--allow-read',
          '--allow-write',
          'src/runtime/deno.ts',
        ],
      ];
    case 'bun':
      return [`${ROOT}node_modules/.bin/bun`, ['src/runtime/bun.ts']];
    case 'binary':
      if (!binaryPath) throw new Error('startServer: runtime "binary" needs binaryPath');
      return [binaryPath, []];
  }
}

/**
 * The exit status, once the process has exited and its output is read through
 * ('close', not 'exit': the shutdown line must be in the logs when this resolves).
 * Call right after spawning.
 */
function closeOf(child: ChildProcess) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

/** A deadline to race against, which does not keep the test process alive once nothing else does. */
const deadlineAfter = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(resolve, ms, 'timeout').unref());

/**
 * Spawns Parley under `runtime` on a free port and waits (at most 20 s) for
 * /healthz to answer 200. A server that does not come up is killed and the
 * error carries everything it printed.
 */
export async function startServer(runtime: RuntimeName, options: StartOptions): Promise<RunningServer> {
  // Between freePort letting the port go and the server taking it, another
  // process (another test file's) may take it: another port, then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOn(await freePort(), runtime, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || options.env?.PORT !== undefined || attempt === 3) throw error;
    }
  }
}

/** The server exited at start-up because its port was taken. */
class PortTaken extends Error {}

async function startServerOn(
  port: number,
  runtime: RuntimeName,
  { databasePath, env = {}, binaryPath, cwd = ROOT }: StartOptions,
): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  const inherited = inheritedEnv();
  const [file, args] = command(runtime, binaryPath);
  const started = performance.now();
  const child = spawn(file, args, {
    cwd,
    env: {
      ...inherited,
      // Deno and Bun would otherwise print colour codes or update notices into the log lines.
      NO_COLOR: '1',
      ...MALLOC_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_PATH: databasePath,
      PUBLIC_URL: url,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = closeOf(child);
  const logs: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      logs.push(...lines.filter((line) => line !== ''));
    });
    stream.on('end', () => {
      if (rest !== '') logs.push(rest);
      rest = '';
    });
  }
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  let failure: Error | undefined;
  void spawnError.then((error) => (failure = error));

  const output = () => (logs.length ? logs.join('\n') : '(no output)');
  let stopping: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const result = await Promise.race([exited, deadlineAfter(STOP_LIMIT_MS)]);
      if (result === 'timeout') {
        child.kill('SIGKILL');
        await Promise.race([exited, deadlineAfter(5_000)]);
        throw new Error(
          `${runtime} server did not exit within ${STOP_LIMIT_MS / 1000} s of ${signal}; killed.\n${output()}`,
        );
      }
      return result;
    })());

  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (failure) throw new Error(`${runtime} server could not be spawned: ${failure.message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      await Promise.race([exited, deadlineAfter(1_000)]); // the rest of its output
      const message = `${runtime} server exited during start-up (code ${child.exitCode}, signal ${child.signalCode}):\n${output()}`;
      throw /the port is in use/.test(output()) ? new PortTaken(message) : new Error(message);
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await Promise.race([exited, deadlineAfter(5_000)]);
      throw new Error(
        `${runtime} server did not answer /healthz with 200 within ${STARTUP_LIMIT_MS / 1000} s:\n${output()}`,
      );
    }
    await sleep(10);
  }
  return { runtime, url, logs, startupMs: Math.round(performance.now() - started), pid: child.pid!, stop };
}
