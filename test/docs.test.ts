/**
 * The README and docs/ say what the code does: every error row is an error the
 * code has (status and exact message), docs/api.md's API table holds every error
 * the API answers, the content types it lists are those the import accepts, the
 * README's configuration table names every variable, every link inside the
 * repository leads somewhere, and every screenshot shown is kept.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { CONFIG_VARIABLES } from '../src/config.ts';
import { ERRORS, ERRORS_WITH_DETAIL, type ErrorCode } from '../src/errors.ts';
import { ROOT } from './conformance/server.ts';
import { conversationsInFixture, fixtureBytes, form, json, providerOfFixture, setup } from './helpers.ts';
import { OPENAPI } from './openapi-check.ts';
import { DOCUMENTS, SCREENSHOTS_DIR, shownScreenshots } from '../scripts/screenshots.ts';

const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The Markdown tables of a document, each as its header's cells and its rows' cells; code blocks left out. */
function tables(markdown: string): Array<{ header: string[]; rows: string[][] }> {
  const cells = (line: string) =>
    line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
  const found: Array<{ header: string[]; rows: string[][] }> = [];
  let inCode = false;
  let current: string[] = [];
  for (const line of [...markdown.split('\n'), '']) {
    if (line.startsWith('```')) inCode = !inCode;
    if (!inCode && line.startsWith('|')) {
      current.push(line);
      continue;
    }
    if (current.length > 2) found.push({ header: cells(current[0]!), rows: current.slice(2).map(cells) });
    current = [];
  }
  return found;
}

const KNOWN = new Map(
  Object.entries(ERRORS).map(([code, [status, message]]) => [`${status} ${message}`, code as ErrorCode]),
);

/** The errors a table's row names, as `status message`: one or several messages (`a` / `b`), perhaps followed by `: <reason>`. */
function rowErrors(row: string[]): string[] {
  return row[1]!.split(' / ').map((message) => `${row[0]} ${message.replace(/^`|`$/g, '').replace(/: <reason>$/, '')}`);
}

const errorTables = DOCUMENTS.flatMap((file) =>
  tables(text(file))
    .filter(({ header }) => header[0] === 'Status' && ['`error`', 'Page says'].includes(header[1]!))
    .map((table) => ({ file, ...table })),
);

describe("the documents' error tables", () => {
  test("there are some: the API's in docs/api.md, the pages' in docs/hosted-pages.md", () => {
    assert.deepEqual([...new Set(errorTables.map(({ file }) => file))].sort(), ['docs/api.md', 'docs/hosted-pages.md']);
  });

  for (const { file, header, rows } of errorTables) {
    test(`${file}: every row (${header[1]}) is an error of src/errors.ts, with its status`, () => {
      for (const row of rows) {
        for (const error of rowErrors(row))
          assert.ok(KNOWN.has(error), `${file}: "${error}" is not an error the code has`);
        if (row[1]!.endsWith(': <reason>`'))
          assert.ok(ERRORS_WITH_DETAIL.includes(KNOWN.get(rowErrors(row)[0]!)!), `${row[1]} takes no reason`);
      }
    });
  }

  test("docs/api.md's table holds every error the API answers, as the OpenAPI document lists them", () => {
    const documented = new Set(
      errorTables
        .filter(({ file, header }) => file === 'docs/api.md' && header[1] === '`error`')
        .flatMap(({ rows }) => rows.flatMap(rowErrors)),
    );
    const answered = new Set([
      `${ERRORS.notFound[0]} ${ERRORS.notFound[1]}`,
      `${ERRORS.methodNotAllowed[0]} ${ERRORS.methodNotAllowed[1]}`,
    ]);
    for (const operations of Object.values(
      OPENAPI.paths as Record<string, Record<string, { responses: Record<string, { description: string }> }>>,
    )) {
      for (const { responses } of Object.values(operations)) {
        for (const [status, { description }] of Object.entries(responses)) {
          // Successes (a file's 206 and 304 too) are no errors.
          if (Number(status) < 400) continue;
          for (const [, message] of description.matchAll(/`([^`]+)`/g)) answered.add(`${status} ${message}`);
        }
      }
    }
    assert.deepEqual([...documented].sort(), [...answered].sort());
  });
});

describe("docs/api.md's content types of an import", () => {
  const listed = tables(text('docs/api.md'))
    .filter(({ header }) => header[0] === 'Content-Type')
    .flatMap(({ rows }) => rows.map((row) => row[0]!.replace(/^`|`$/g, '')));

  test('are those the OpenAPI document gives the import', () => {
    const body = (OPENAPI.paths as any)['/api/ingest-export'].post.requestBody.content;
    assert.deepEqual([...listed].sort(), Object.keys(body).sort());
  });

  const EXPORT = 'claude-conversations.json';
  /** For each listed type, a body as its row describes it and the fixture that body holds. */
  const UPLOADS: Record<string, [fixture: string, body: BodyInit | Uint8Array]> = {
    'application/json': [EXPORT, fixtureBytes(EXPORT)],
    'application/zip': [EXPORT, zipSync({ 'conversations.json': fixtureBytes(EXPORT) })],
    'application/x-zip-compressed': [EXPORT, zipSync({ 'conversations.json': fixtureBytes(EXPORT) })],
    'text/csv': ['copilot-activity-history.csv', fixtureBytes('copilot-activity-history.csv')],
    'text/html': ['meta-your_ai_conversations.html', fixtureBytes('meta-your_ai_conversations.html')],
    'text/plain': ['duckai-cast-iron.txt', fixtureBytes('duckai-cast-iron.txt')],
    // Sent with the Content-Type a browser gives a form: the type and the form's boundary.
    'multipart/form-data': [EXPORT, form({}, { bytes: fixtureBytes(EXPORT), type: 'application/json' })],
  };

  test('each imports an export sent as its row says, and another is refused', async () => {
    const t = await setup();
    for (const [i, type] of listed.entries()) {
      assert.ok(UPLOADS[type], `${type}: no upload of this type in the test`);
      const [fixture, body] = UPLOADS[type];
      const res = await t.request(`/api/ingest-export?userRef=docs-${i}`, {
        method: 'POST',
        headers: body instanceof FormData ? {} : { 'Content-Type': type },
        body: body as BodyInit,
      });
      const answer = await json(res);
      assert.deepEqual(
        [res.status, answer.provider, answer.created],
        [200, providerOfFixture(fixture), conversationsInFixture(fixture)],
        `${type}: ${JSON.stringify(answer)}`,
      );
    }
    const refused = await t.request('/api/ingest-export?userRef=u1', {
      method: 'POST',
      headers: { 'Content-Type': 'image/png' },
      body: fixtureBytes(EXPORT) as BodyInit,
    });
    assert.deepEqual([refused.status, await json(refused)], [415, { error: 'Unsupported content type' }]);
  });
});

describe("the README's configuration table", () => {
  test('names every environment variable Parley reads, and no other', () => {
    const named = tables(text('README.md'))
      .filter(({ header }) => header[0] === 'Variable')
      .flatMap(({ rows }) => rows.flatMap((row) => [...row[0]!.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!)));
    assert.deepEqual([...named].sort(), [...CONFIG_VARIABLES].sort());
  });
});

describe("the documents' links", () => {
  /** GitHub's anchor for a heading. */
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replaceAll(' ', '-');
  const anchors = (file: string) => {
    const markdown = text(file).replace(/^```[\s\S]*?^```/gm, '');
    return new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading!)));
  };

  for (const file of DOCUMENTS) {
    test(`${file}: every link inside the repository leads to a file, and to a heading there`, () => {
      const markdown = text(file)
        .replace(/^```[\s\S]*?^```/gm, '')
        .replace(/`[^`\n]*`/g, '');
      for (const [, target] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const linked = path === '' ? file : join(dirname(file), path);
        assert.ok(existsSync(join(ROOT, linked)), `${file}: ${target} leads nowhere`);
        if (anchor !== undefined)
          assert.ok(anchors(linked).has(anchor), `${file}: ${target} names no heading of ${linked}`);
      }
    });
  }

  test('none names a document outside the repository', () => {
    for (const file of DOCUMENTS) {
      assert.doesNotMatch(text(file), /decisions(\.md)?\s*§|\bissue \d+|\.\.\/shared|interface\.md|STYLE\.md/i, file);
    }
  });
});

describe("the documents' screenshots", () => {
  test('every one the README or docs/ shows is in docs/screenshots/, and every image there is shown: the screenshots script keeps exactly these', () => {
    const shown = shownScreenshots();
    for (const name of ['connect-start-390.png', 'manage-memories-390.png', 'connect-start-1280.png'])
      assert.ok(shown.has(name), `${name}: shown by the README or docs/hosted-pages.md`);
    assert.deepEqual([...shown].sort(), readdirSync(join(ROOT, SCREENSHOTS_DIR)).sort());
  });
});

describe("the README's quick start", () => {
  test('writes its secrets only where git ignores them (data/, beside the database)', () => {
    const written = [...text('README.md').matchAll(/ > (\S+)/g)].map((match) => match[1]!);
    assert.ok(written.includes('data/acme-app.json'));
    const ignored = text('.gitignore').split('\n');
    for (const path of written) assert.ok(ignored.includes(`${path.split('/')[0]}/`), `${path} is not git-ignored`);
  });
});
