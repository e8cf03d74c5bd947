import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort, nodeEntry, ROOT } from '../conformance/server.ts';

/** Where `capture` writes; `npm run screenshots` points it elsewhere to refresh docs/screenshots/. */
export const SCREENSHOTS_DIR =
  process.env.PARLEY_SCREENSHOTS_DIR || fileURLToPath(new URL('./screenshots/', import.meta.url));

const run = promisify(execFile);

export interface RunningServer {
  baseUrl: string;
  env: Record<string, string>;
  /** Everything the server wrote, for failure messages. */
  output(): string;
  /** How the server ended, if it did before `stop()`: `exit code 1`, `signal SIGKILL`. */
  ended(): string | undefined;
  stop(): Promise<void>;
}

/** Starts the Node entry as `npm start` builds it and waits for /healthz. */
export async function startServer(databasePath: string): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_PATH: databasePath,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, [nodeEntry()], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let ended: string | undefined;
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) ended = signal ? `signal ${signal}` : `exit code ${code}`;
  });
  const server: RunningServer = {
    baseUrl,
    env,
    output: () => output,
    ended: () => ended,
    stop: () => {
      stopping = true;
      return stopProcess(child);
    },
  };

  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return server;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  await server.stop();
  throw new Error(`server did not answer /healthz within 15 s (exit code ${child.exitCode}):\n${output}`);
}

/** SIGTERM (the server's graceful path), then SIGKILL if it has not exited after 5 s. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * What a browser suite's `before` starts: the server on a database in a new
 * temporary folder, and Chromium, both at once. `stop` (the suite's `after`)
 * ends whichever started and removes the folder; if either failed to start,
 * the other is stopped before the failure is thrown.
 */
export async function startBrowserSuite(prefix: string) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const [started, launched] = await Promise.allSettled([startServer(join(tmp, 'parley.db')), launchChromium()]);
  const server = started.status === 'fulfilled' ? started.value : undefined;
  const browser = launched.status === 'fulfilled' ? launched.value : undefined;
  const stop = async () => {
    try {
      await browser?.close();
    } finally {
      await server?.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  };
  if (started.status === 'rejected' || launched.status === 'rejected') {
    await stop();
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  return { tmp, server: server!, browser: browser!, stop };
}

/** Runs the operator CLI against the server's database and returns the JSON it printed. */
export async function cli(server: RunningServer, ...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [nodeEntry(), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...server.env },
  });
  return JSON.parse(stdout);
}

/** The Chromium the browser tests drive: CHROMIUM_PATH, or Debian's package (playwright-core downloads none). */
export const chromiumPath = (): string => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Where every browser test goes, hooks included. Without Chromium the block is
 * skipped with one line saying why, so a clone without it still runs the rest of
 * the suite — unless PARLEY_REQUIRE_BROWSER=1 (CI sets it): then the missing
 * browser is one failing test, and a run can never pass by skipping these.
 */
export function describeInBrowser(name: string, define: () => void): void {
  const path = chromiumPath();
  const missing = existsSync(path)
    ? undefined
    : `no Chromium at ${path} — install it (apt-get install chromium) or set CHROMIUM_PATH to one`;
  if (missing && process.env.PARLEY_REQUIRE_BROWSER === '1') {
    test(name, () => assert.fail(`browser tests required (PARLEY_REQUIRE_BROWSER=1), but ${missing}`));
    return;
  }
  describe(name, { skip: missing ? `browser tests skipped: ${missing}` : false }, define);
}

/** Chromium as CI runs it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Collects what would show up red in the developer console: errors logged by the
 * page (CSP violations are reported this way too), uncaught exceptions, and any
 * alert/confirm/prompt (dismissed, so the page does not hang).
 */
export function watchPage(page: Page) {
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
      problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return {
    problems,
    dialogs,
    /**
     * Chromium logs every 4xx/5xx document as "Failed to load resource"; pages
     * that are meant to answer with an error status pass theirs here.
     */
    unexpected(allowedStatuses: number[] = []) {
      return problems.filter(
        (problem) =>
          !allowedStatuses.some((status) => problem.includes(`the server responded with a status of ${status}`)),
      );
    },
  };
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * What a demanding designer checks on every page at phone width: nothing wider than
 * the screen, tap targets at least 44 px high, text contrast at least WCAG AA
 * (4.5:1, or 3:1 for large text). Returns the offending cases, described.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(LAYOUT_AUDIT) as Promise<string[]>;
}

// Plain JavaScript run in the page. A string, not a function: tsx compiles this
// file with esbuild's keepNames, which wraps named inner functions in a `__name`
// helper that does not exist inside the page.
const LAYOUT_AUDIT = `(() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) problems.push('page is ' + root.scrollWidth + 'px wide in a ' + window.innerWidth + 'px viewport');

  const describe = (el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().replace(/\\s+/g, '.') : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';

  for (const el of document.querySelectorAll('button, .button, a.choice, input[type=file], .back a, .conversations li, .pager a, .connection > a, .to-top a')) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.height < 44) problems.push('tap target ' + describe(el) + ' is ' + Math.round(box.height) + 'px high');
    if (box.right > window.innerWidth + 0.5) problems.push(describe(el) + ' sticks out to ' + Math.round(box.right) + 'px');
  }

  const rgba = (value) => {
    const parts = (value.match(/[\\d.]+/g) || [0, 0, 0, 0]).map(Number);
    return { r: parts[0], g: parts[1], b: parts[2], a: parts[3] === undefined ? 1 : parts[3] };
  };
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  // The first ancestor with a (mostly) opaque background is what the text sits on.
  const backgroundOf = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color.a > 0.5) return color;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || seen.has(el) || !(node.textContent || '').trim()) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || el.closest('[hidden]') || el.getClientRects().length === 0) continue;
    const fg = luminance(rgba(style.color));
    const bg = luminance(backgroundOf(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) problems.push('contrast ' + ratio.toFixed(2) + ':1 for ' + describe(el));
  }
  return problems;
})()`;

/**
 * axe-core's browser build. It goes into the page through the DevTools protocol
 * (`page.evaluate`), which the pages' Content-Security-Policy does not govern; a
 * `<script>` tag (`page.addScriptTag`) would be refused by `script-src 'self'`
 * and reported as a CSP violation.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// A string for the same reason as LAYOUT_AUDIT. Every rule at axe's defaults: WCAG
// 2.0, 2.1 and 2.2 A and AA, and its best practices.
const AXE_RUN = `axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations.map((v) =>
  v.id + ' (' + v.impact + '): ' + v.help + ' — ' + v.nodes.map((node) => node.target.join(' ')).join(', ')))`;

/** What axe-core finds wrong on the current page, one line per rule broken, with the elements that break it. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(AXE_RUN) as Promise<string[]>;
}

/**
 * Full-page screenshots of the current page at phone and desktop size, named
 * `<name>-390.png` and `<name>-1280.png`, with axe-core run at each size; checks
 * the layout at phone size and returns to the phone viewport the flows run in.
 * Returns every problem found, described.
 */
export async function capture(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const problems: string[] = [];
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}-${viewport.width}.png`), fullPage: true });
    problems.push(
      ...(await accessibilityViolations(page)).map((violation) => `axe at ${viewport.width} px: ${violation}`),
    );
  }
  return [...problems, ...(await layoutProblems(page))];
}

// What has the keyboard focus, as a string run in the page (see LAYOUT_AUDIT): its
// name as a person reads it (a file input by its label), whether the focus shows
// (the element matches :focus-visible and draws an outline or a shadow), and
// whether it comes after the element focused before it on this page.
const FOCUS_STOP = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
  const named = el.labels && el.labels.length ? el.labels[0].innerText : el.getAttribute('aria-label') || el.innerText;
  const previous = window.__parleyFocus;
  window.__parleyFocus = el;
  return {
    name: named.replace(/\\s+/g, ' ').trim().slice(0, 60),
    shown: el.matches(':focus-visible') && ring,
    after: previous && previous.isConnected ? Boolean(previous.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) : undefined,
  };
})()`;

/**
 * Moves the focus with Tab (Shift+Tab when `backwards`) until it is on the element
 * named `name` (or matching it), as a keyboard-only person would. At every stop the focus must be
 * visible and move in the page's order (forwards with Tab, backwards with
 * Shift+Tab). Returns the names of the stops, the last one included.
 */
export async function tabTo(page: Page, name: string | RegExp, { backwards = false } = {}): Promise<string[]> {
  const stops: string[] = [];
  while (stops.length < 40) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const stop = (await page.evaluate(FOCUS_STOP)) as {
      name: string;
      shown: boolean;
      after: boolean | undefined;
    } | null;
    assert.ok(
      stop,
      `${backwards ? 'Shift+Tab' : 'Tab'} after ${JSON.stringify(stops)} left the page's elements before reaching "${String(name)}"`,
    );
    stops.push(stop.name);
    assert.ok(stop.shown, `the focus on "${stop.name}" does not show`);
    if (stop.after !== undefined)
      assert.equal(
        stop.after,
        !backwards,
        `the focus went ${backwards ? 'forwards' : 'backwards'} to "${stop.name}" (stops: ${JSON.stringify(stops)})`,
      );
    if (typeof name === 'string' ? stop.name === name : name.test(stop.name)) return stops;
  }
  assert.fail(`"${String(name)}" not reached in 40 presses: ${JSON.stringify(stops)}`);
}
